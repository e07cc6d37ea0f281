import Foundation
import TestSupport
import Testing

/// `arcapture annotate … --overlay-only`: the drawing alone, with alpha, for an editor (issue 40,
/// item 8). Each output is laid over the original footage by ffmpeg's `overlay` filter (an
/// independent compositor) and compared with arcapture's own burned-in output of the same frames.
@Suite("arcapture annotate --overlay-only (an overlay track for editors)")
struct OverlayOnlyTests {
    static let clip = PackagePaths.sample("video/max-heromode.mp4")
    static let carlsbad = PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson")
    static let goProOptions = [
        "--pois", carlsbad, "--hfov", "118", "--heading-from-course", "--max-distance", "40000",
    ]

    private static func ffmpeg(_ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "error", "-y"] + arguments, install: "apt-get install ffmpeg")
    }

    private static func probe(_ path: String, _ entries: String, decoder: [String] = []) async throws -> String {
        try await ProcessRunner.run(
            tool: "ffprobe", ["-v", "error"] + decoder + ["-show_entries", entries, "-of", "csv=p=0", path],
            install: "apt-get install ffmpeg"
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Frames `frames` of a filter graph's output (its inputs `inputs`), as packed RGB bytes.
    private static func rgb(
        _ inputs: [String], graph: String, frames: Int, in directory: URL, name: String
    ) async throws -> [UInt8] {
        let path = directory.appendingPathComponent("\(name).rgb").path
        let made = try await ffmpeg(
            inputs + [
                "-filter_complex", graph, "-vsync", "0", "-frames:v", "\(frames)", "-pix_fmt", "rgb24", "-f",
                "rawvideo", path,
            ])
        #expect(made.status == 0, "\(made.stderr)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// `select` for frames `indices`, numbered again from 0 (frames are paired by their place, not
    /// their timestamps: WebM's are whole milliseconds).
    private static func picking(_ indices: [Int]) -> String {
        "select='" + indices.map { "eq(n\\,\($0))" }.joined(separator: "+") + "',setpts=N"
    }

    /// How `composite` (the overlay laid over the footage) compares with `burned` (annotate's own
    /// output) where the drawing is: the pixels where `burned` differs from `original` by more than
    /// 8 in a channel. Differences are each pixel's largest over its channels.
    struct Comparison: CustomStringConvertible {
        var drawnFraction: Double
        var mean: Double
        var percentile99: Int
        /// The drawing's own size, for scale: the original against the burned-in output there.
        var drawingMean: Double

        init(composite: [UInt8], burned: [UInt8], original: [UInt8]) {
            var differences: [Int] = []
            var drawing = 0
            var pixels = 0
            for pixel in stride(from: 0, to: min(composite.count, burned.count, original.count) - 2, by: 3) {
                pixels += 1
                var drawn = 0
                var difference = 0
                for channel in 0..<3 {
                    let reference = Int(burned[pixel + channel])
                    drawn = max(drawn, abs(reference - Int(original[pixel + channel])))
                    difference = max(difference, abs(reference - Int(composite[pixel + channel])))
                }
                guard drawn > 8 else { continue }
                differences.append(difference)
                drawing += drawn
            }
            differences.sort()
            drawnFraction = Double(differences.count) / Double(max(pixels, 1))
            mean = Double(differences.reduce(0, +)) / Double(max(differences.count, 1))
            percentile99 = differences.isEmpty ? 0 : differences[differences.count * 99 / 100]
            drawingMean = Double(drawing) / Double(max(differences.count, 1))
        }

        var description: String {
            String(
                format: "%.1f %% of pixels drawn; there the composite is off by %.2f on average, 99th percentile %d "
                    + "(the drawing itself changes them by %.1f)", drawnFraction * 100, mean, percentile99, drawingMean)
        }

        /// Whether the composite is within `tolerance` of the burned-in frames where the drawing
        /// is, and the drawing big enough for that to mean something (its own mean change ≥ 20).
        func within(_ tolerance: Tolerance) -> Bool {
            mean <= tolerance.mean && percentile99 <= tolerance.percentile99 && drawingMean >= 20
        }
    }

    /// The stated tolerances, in levels of 255 over the drawn pixels (mean; 99th percentile).
    struct Tolerance: Sendable, CustomStringConvertible {
        var mean: Double
        var percentile99: Int

        /// Footage in 4:4:4 and a lossless overlay: the drawing lands on the same samples (measured
        /// 1.0 and 2, PNG, QuickTime Animation and ProRes alike: rounding).
        static let exact = Tolerance(mean: 1.5, percentile99: 4)
        /// 4:2:0 on one side or both: annotate blends each chroma sample once, with the mean
        /// coverage of its four pixels, where a compositor blends every pixel; the two differ on a
        /// drawing's edges, a large share of small labels' pixels (measured: the GoPro clip's
        /// ProRes 2.1 and 17; VP9's 4:2:0 and lossy coding 2.5 and 27). An overlay one pixel off,
        /// or in the wrong range, was 25 and 207.
        static let subsampled = Tolerance(mean: 4, percentile99: 32)

        var description: String { "mean \(mean), 99th percentile \(percentile99)" }
    }

    @Test(
        "ProRes 4444 from the GoPro clip: every frame at its time, no audio, over the footage it is annotate's output")
    func proResOverGoPro() async throws {
        let directory = try PackagePaths.temporaryDirectory("overlay")
        defer { try? FileManager.default.removeItem(at: directory) }
        let overlay = directory.appendingPathComponent("overlay.mov").path
        let result = try await Binary.run(
            ["annotate", Self.clip] + Self.goProOptions + ["--overlay-only", "--output", overlay])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("315 frames in, 315 out (315 annotated"), "\(result.stderr)")
        #expect(
            try await Self.probe(overlay, "stream=codec_name,profile,pix_fmt,codec_type").hasPrefix(
                "prores,4444,video,yuva444p"))
        // The video and its timecode (an editor lines the overlay up by it); neither audio nor GPMF.
        let kinds = try await Self.probe(overlay, "stream=codec_type,codec_tag_string").split(separator: "\n")
        #expect(kinds == ["video,ap4h", "data,tmcd"], "\(kinds)")
        #expect(try await Self.probe(overlay, "stream_tags=timecode").hasPrefix("15:44:35:10"))
        let times = { (path: String) in
            try await Self.probe(path, "frame=pts_time", decoder: ["-select_streams", "v:0"])
        }
        let overlayTimes = try await times(overlay)
        #expect(overlayTimes.split(separator: "\n").count == 315)
        #expect(try await overlayTimes == times(Self.clip), "every frame at the footage's own time")
        // annotate's burned-in frames, losslessly (x264 at CRF 0).
        let burned = directory.appendingPathComponent("burned.mkv").path
        let reference = try await Binary.run(
            ["annotate", Self.clip] + Self.goProOptions + ["--crf", "0", "--preset", "ultrafast", "--output", burned])
        #expect(reference.status == 0, "\(reference.stderr)")
        let frames = [0, 150, 300]
        let pick = Self.picking(frames)
        let composite = try await Self.rgb(
            ["-i", Self.clip, "-i", overlay], graph: "[0:v]\(pick)[a];[1:v]\(pick)[b];[a][b]overlay=format=rgb",
            frames: 3, in: directory, name: "composite")
        let burnedFrames = try await Self.rgb(
            ["-i", burned], graph: "[0:v]\(pick)", frames: 3, in: directory, name: "burned")
        let original = try await Self.rgb(
            ["-i", Self.clip], graph: "[0:v]\(pick)", frames: 3, in: directory, name: "original")
        #expect(composite.count == 848 * 480 * 3 * 3 && burnedFrames.count == composite.count)
        let comparison = Comparison(composite: composite, burned: burnedFrames, original: original)
        #expect(comparison.drawnFraction > 0.01 && comparison.drawnFraction < 0.2, "\(comparison)")
        #expect(comparison.within(.subsampled), "\(comparison)")
    }

    @Test(
        "ProRes, QuickTime Animation, PNG in MOV, VP9 in WebM and PNG files from a 4:4:4 DJI clip: each one's alpha, over the footage annotate's output",
        arguments: [
            ("prores.mov", [], "prores,yuva444p12le", Tolerance.exact),
            ("qtrle.mov", ["--codec", "qtrle"], "qtrle,argb", .exact),
            ("png.mov", ["--codec", "png"], "png,rgba", .exact), ("frames/%03n.png", [], "png,rgba", .exact),
            // WebM says its alpha in a tag; the stream's own format is the colour planes'.
            ("vp9.webm", [], "vp9,yuv420p", .subsampled),
        ])
    func codecs(name: String, options: [String], expected: String, tolerance: Tolerance) async throws {
        let directory = try PackagePaths.temporaryDirectory("overlay-codecs")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A real photo as 12 frames of 4:4:4 H.264 (natural colours, every chroma sample its own
        // pixel's): named and timed as a DJI drone's clip, its real subtitle file beside it.
        let video = directory.appendingPathComponent("DJI_0001.MP4").path
        let made = try await Self.ffmpeg([
            "-loop", "1", "-i", PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg"), "-vf",
            "scale=640:360,format=yuv444p", "-r", "30000/1001", "-frames:v", "12", "-c:v", "libx264", video,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("dji-srt/ruz76/DJI_MAVIC_3T.SRT"),
            toPath: directory.appendingPathComponent("DJI_0001.SRT").path)
        let pois = directory.appendingPathComponent("pois.geojson").path
        try DJIFootageTests.pointsOfInterest(
            from: (50.106373, 14.495168), bearings: [("Ahead", 252.7), ("Right", 267.7), ("Left", 240.7)]
        ).write(toFile: pois, atomically: true, encoding: .utf8)
        let common = ["annotate", video, "--pois", pois, "--hfov", "60"]
        let overlay = directory.appendingPathComponent(name).path
        let result = try await Binary.run(common + ["--overlay-only"] + options + ["--output", overlay])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("12 frames in, 12 out (12 annotated"), "\(result.stderr)")
        let isSequence = name.hasPrefix("frames/")
        let first = isSequence ? directory.appendingPathComponent("frames/001.png").path : overlay
        // libvpx's own decoder reads VP9's alpha (FFmpeg's native one drops it).
        let decoder = name.hasSuffix(".webm") ? ["-c:v", "libvpx-vp9"] : []
        #expect(try await Self.probe(first, "stream=codec_name,pix_fmt") == expected)
        if name.hasSuffix(".webm") { #expect(try await Self.probe(first, "stream_tags=alpha_mode") == "1") }
        if isSequence {
            let files = try FileManager.default.contentsOfDirectory(
                atPath: directory.appendingPathComponent("frames").path)
            #expect(files.sorted() == (1...12).map { String(format: "%03d.png", $0) })
        }
        // annotate's burned-in frames as drawn, in 4:4:4 (an H.264 file would be 4:2:0).
        let burned = directory.appendingPathComponent("burned.y4m").path
        let reference = try await Binary.run(common + ["--output", burned])
        #expect(reference.status == 0, "\(reference.stderr)")
        let pick = Self.picking([6])
        let overlayInput =
            isSequence
            ? ["-framerate", "30000/1001", "-i", directory.appendingPathComponent("frames/%03d.png").path]
            : decoder + ["-i", overlay]
        let composite = try await Self.rgb(
            ["-i", video] + overlayInput, graph: "[0:v]\(pick)[a];[1:v]\(pick)[b];[a][b]overlay=format=rgb", frames: 1,
            in: directory, name: "composite")
        let burnedFrame = try await Self.rgb(
            ["-i", burned], graph: "[0:v]\(pick)", frames: 1, in: directory, name: "burned")
        let original = try await Self.rgb(
            ["-i", video], graph: "[0:v]\(pick)", frames: 1, in: directory, name: "original")
        let comparison = Comparison(composite: composite, burned: burnedFrame, original: original)
        #expect(comparison.drawnFraction > 0.005, "\(comparison)")
        #expect(comparison.within(tolerance), "\(comparison) against \(tolerance)")
    }

    @Test("what cannot hold alpha, or a codec without it, is refused with the choices (64), nothing written")
    func refusals() async throws {
        let directory = try PackagePaths.temporaryDirectory("overlay-refused")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases: [([String], String)] = [
            (["--output", "o.mp4"], "MP4 holds no codec with alpha that editors take"),
            (
                ["--output", "o.mjpeg"],
                "--overlay-only writes FILE.mov (ProRes 4444; --codec qtrle or png), FILE.webm (VP9) or overlay/%05n.png, not"
            ),
            (["--output", "o.mov", "--codec", "h264"], "--overlay-only writes alpha, which h264 cannot hold"),
            (["--output", "o.webm", "--codec", "prores"], "ProRes, QuickTime Animation and PNG go in FILE.mov"),
            (["--output", "f/%03n.jpg"], "--overlay-only writes numbered frames as PNG"),
        ]
        for (options, message) in cases {
            let arguments =
                ["annotate", Self.clip] + Self.goProOptions + ["--overlay-only"]
                + options.map {
                    $0.hasPrefix("o.") || $0.hasPrefix("f/") ? directory.appendingPathComponent($0).path : $0
                }
            let result = try await Binary.run(arguments)
            #expect(result.status == 64 && result.stderr.contains(message), "\(options): \(result.stderr)")
        }
        let withoutFlag = try await Binary.run(
            ["annotate", Self.clip] + Self.goProOptions + [
                "--codec", "prores", "--output", directory.appendingPathComponent("o.mov").path,
            ])
        #expect(
            withoutFlag.status == 64
                && withoutFlag.stderr.contains("--codec prores writes an overlay with alpha: add --overlay-only"),
            "\(withoutFlag.stderr)")
        let webmWithoutFlag = try await Binary.run(
            ["annotate", Self.clip] + Self.goProOptions + ["--output", directory.appendingPathComponent("o.webm").path])
        #expect(
            webmWithoutFlag.status == 64 && webmWithoutFlag.stderr.contains("is for an overlay alone")
                && webmWithoutFlag.stderr.contains("add --overlay-only"),
            "\(webmWithoutFlag.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
