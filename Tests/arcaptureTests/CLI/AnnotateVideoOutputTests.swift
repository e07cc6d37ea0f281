import CaptureKit
import Foundation
import TestSupport
import Testing

/// `arcapture annotate … --output FILE.mp4|.mov|.mkv`: the built binary writing video files,
/// checked with the ffmpeg and ffprobe programs (independent readers): frame counts and every
/// frame's timestamp as the input's, the audio and GoPro telemetry packet for packet as the
/// input's (FFmpeg's per-packet MD5s), metadata kept, a phone's turned video written upright.
@Suite("arcapture annotate (video files out)")
struct AnnotateVideoOutputTests {
    static let clip = PackagePaths.sample("video/max-heromode.mp4")
    static let carlsbad = PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson")

    private func tool(_ name: String, _ arguments: [String]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.run(tool: name, ["-v", "error"] + arguments, install: "apt-get install ffmpeg")
    }

    /// Every frame's presentation time in the first video stream, as ffprobe reads it.
    private func frameTimes(_ path: String) async throws -> [String] {
        try await tool(
            "ffprobe", ["-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path]
        )
        .stdout.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ", ")) }
        .filter { !$0.isEmpty }
    }

    /// The two samples around `time` (the first at or after it, and the one before it) and where
    /// `time` lies between them, 0…1; nil before the second sample or after the last.
    static func bracket<Sample>(_ samples: [Sample], at time: Double, time sampleTime: (Sample) -> Double) -> (
        a: Sample, b: Sample, fraction: Double
    )? {
        guard let after = samples.firstIndex(where: { sampleTime($0) >= time }), after > 0 else { return nil }
        let (a, b) = (samples[after - 1], samples[after])
        return (a, b, (time - sampleTime(a)) / (sampleTime(b) - sampleTime(a)))
    }

    /// The packets of stream `map` (`0:a`, `0:3`) as ffmpeg's framemd5 lists them: each packet's
    /// timestamps, duration, size and MD5, without the stream number (it moves).
    private func packets(_ path: String, _ map: String) async throws -> [String] {
        try await tool("ffmpeg", ["-i", path, "-map", map, "-c", "copy", "-f", "framemd5", "-"]).stdout
            .split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map {
                $0.split(separator: ",").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.joined(
                    separator: ",")
            }
    }

    /// `ffprobe`'s words for each stream: `codec_name,codec_type,codec_tag_string`.
    private func streams(_ path: String) async throws -> [String] {
        try await tool(
            "ffprobe", ["-show_entries", "stream=codec_type,codec_name,codec_tag_string", "-of", "csv=p=0", path]
        )
        .stdout.split(separator: "\n").map(String.init)
    }

    private func tag(_ path: String, _ entry: String) async throws -> String {
        try await tool("ffprobe", ["-show_entries", entry, "-of", "default=nw=1:nk=1", path]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the GoPro clip to MP4: H.264, every frame at its time, audio and GPMF copied packet for packet")
    func goProToMP4() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("ride.mp4").path
        let result = try await Binary.run([
            "annotate", Self.clip, "--pois", Self.carlsbad, "--hfov", "118", "--heading-from-course",
            "--max-distance", "40000", "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("315 frames in, 315 out (315 annotated"))
        // The timecode track is written again from the video's timecode: no warning says otherwise.
        #expect(!result.stderr.contains("tmcd"), "\(result.stderr)")
        #expect(result.stderr.contains("not copied: stream 4 (fdsc data): MP4 cannot hold it"))
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == output)
        let kinds = try await streams(output)
        #expect(kinds.first == "h264,video,avc1", "\(kinds)")
        #expect(kinds.contains("aac,audio,mp4a") && kinds.contains("bin_data,data,gpmd"), "\(kinds)")
        #expect(kinds.contains { $0.hasSuffix(",data,tmcd") }, "\(kinds)")
        let outputTimecode = try await tag(output, "stream_tags=timecode").split(separator: "\n").first
        let clipTimecode = try await tag(Self.clip, "stream_tags=timecode").split(separator: "\n").first
        #expect(outputTimecode == clipTimecode && outputTimecode == "15:44:35:10")
        // The camera's user data (firmware, lens and camera serials, where it was) and its brand,
        // as exiftool reads them from the clip.
        let cameraTags = { (path: String) in
            try ProcessRunner.runBlocking(
                tool: "exiftool",
                [
                    "-n", "-s", "-FirmwareVersion", "-LensSerialNumber", "-SerialNumberHash", "-GPSCoordinates",
                    "-MajorBrand", path,
                ],
                install: "apt-get install libimage-exiftool-perl"
            ).stdout
        }
        let theirs = try cameraTags(Self.clip)
        #expect(theirs.split(separator: "\n").count == 5 && theirs.contains("mp41"), "\(theirs)")
        #expect(try cameraTags(output) == theirs)
        let times = try await frameTimes(output)
        #expect(times.count == 315)
        await #expect(times == (try frameTimes(Self.clip)), "every frame's timestamp as the input's")
        await #expect(try packets(output, "0:a") == (try packets(Self.clip, "0:a")), "the audio, packet for packet")
        let telemetry = try await packets(Self.clip, "0:3")
        #expect(!telemetry.isEmpty)
        await #expect(try packets(output, "0:d:0") == telemetry, "GoPro's GPMF, packet for packet")
        await #expect(try tag(output, "format_tags=creation_time") == "2019-11-18T15:45:32.000000Z")
        await #expect(try tag(output, "stream=pix_fmt").hasPrefix("yuvj420p"), "GoPro's full range kept")
        // arcapture reads its own output's GPS again: the telemetry survived whole.
        let location = try await Binary.run(["location", output])
        #expect(location.status == 0, "\(location.stderr)")
        // Each line without its first column (when `location` printed it).
        let fixes = { (text: String) in text.split(separator: "\n").map { $0.split(separator: " ").dropFirst() } }
        #expect(fixes(location.stdout).count > 190)
        await #expect(fixes(location.stdout) == fixes(try Binary.run(["location", Self.clip]).stdout))
        // Nothing but the output is left in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["ride.mp4"])
    }

    @Test(
        "each frame's pose is the video's own GPS at the frame's time, pitch and roll its gravity vector's, its heading turning with the picture, and its POIs where `project` puts them"
    )
    func posesFromEmbeddedGPS() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run([
            "annotate", Self.clip, "--pois", Self.carlsbad, "--hfov", "118", "--heading-from-course",
            "--max-distance", "40000", "--output", directory.appendingPathComponent("ride.mp4").path,
            "--sidecar", sidecar,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let records = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let times = try await frameTimes(Self.clip).compactMap(Double.init)
        #expect(records.count == 315 && times.count == 315)
        // The samples on the video's clock, read independently (ffprobe's packets, a KLV walk of
        // the test's own): each packet's spread over its duration.
        let reference = try await GPMFReference(video: Self.clip)
        let samples = reference.packets.flatMap { packet in
            packet.samples.enumerated().map { index, sample in
                (time: packet.time + packet.duration * Double(index) / Double(packet.samples.count), sample: sample)
            }
        }
        var compared = 0
        for (record, time) in zip(records, times) {
            guard let (a, b, fraction) = Self.bracket(samples, at: time, time: \.time) else { continue }
            let pose = try #require(record["pose"] as? [String: Double])
            for (key, column) in [("lat", 0), ("lon", 1)] {
                let expected = a.sample[column] + (b.sample[column] - a.sample[column]) * fraction
                #expect(
                    abs((pose[key] ?? 0) - expected) < 1e-7,
                    "frame at \(time) s: \(key) \(pose[key] ?? 0) ≠ \(expected)")
            }
            compared += 1
        }
        #expect(compared > 300, "the frames within the GPS samples")
        try Self.expectAttitude(records: records, times: times, reference: reference)
        try await expectLabelsFollowScene(records: records, directory: directory)
        // One frame's POIs through `project` with that frame's pose: the same pixels.
        let record = records[150]
        let pose = try #require(record["pose"] as? [String: Double])
        let drawn = try #require(record["pois"] as? [[String: Any]])
        #expect(!drawn.isEmpty)
        let projected = try await Binary.run([
            "project", "--pois", Self.carlsbad, "--position",
            "\(pose["lat"] ?? 0),\(pose["lon"] ?? 0),\(pose["alt_m"] ?? 0)", "--orientation",
            "\(pose["heading_deg"] ?? 0),\(pose["pitch_deg"] ?? 0),\(pose["roll_deg"] ?? 0)", "--hfov", "118",
            "--size", "848x480", "--json",
        ])
        #expect(projected.status == 0, "\(projected.stderr)")
        let points = try #require(
            try JSONSerialization.jsonObject(with: Data(projected.stdout.utf8)) as? [[String: Any]])
        for poi in drawn {
            let id = poi["id"] as? String ?? ""
            let point = try #require(points.first { $0["id"] as? String == id }, "\(id) is not projected")
            #expect(abs((poi["u"] as? Double ?? -1) - (point["u"] as? Double ?? 0)) < 1e-6)
            #expect(abs((poi["v"] as? Double ?? -1) - (point["v"] as? Double ?? 0)) < 1e-6)
        }
    }

    /// The heading follows the camera's own turns (CORI) between fixes: a distant town's label
    /// moves across the picture as the scene does. The scene's motion is measured here, from
    /// ffmpeg's own decode of two frames (a quarter of the size, grey): the shift of the middle of
    /// the picture that best matches them (least absolute difference). Between 4.0 s and 9.0 s
    /// the camera turns left and the scene moves right (about 39 pixels at full size); between
    /// 10.0 s and 10.4 s it turns right fast (about 114 pixels left). The label must move the same
    /// way, by 0.5–1.5 times as much (the lens is not the pinhole of `--hfov`, and walking forward
    /// moves the near scene too). With the heading from the course alone, it moved 21 pixels left
    /// and 18 right: the wrong way both times.
    private func expectLabelsFollowScene(records: [[String: Any]], directory: URL) async throws {
        let pairs = [(120, 270), (300, 312)]
        let (width, height) = (212, 120)
        let raw = directory.appendingPathComponent("frames.gray").path
        let select = pairs.flatMap { [$0.0, $0.1] }.sorted().map { "eq(n\\,\($0))" }.joined(separator: "+")
        let extracted = try await tool(
            "ffmpeg",
            [
                "-i", Self.clip, "-vf", "select=\(select),scale=\(width):\(height),format=gray", "-fps_mode",
                "passthrough", "-f", "rawvideo", "-y", raw,
            ])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: raw)))
        try #require(bytes.count == 4 * width * height)
        let order = pairs.flatMap { [$0.0, $0.1] }.sorted()
        func frame(_ index: Int) -> ArraySlice<UInt8> {
            let start = (order.firstIndex(of: index) ?? 0) * width * height
            return bytes[start..<start + width * height]
        }
        func labelU(_ record: [String: Any]) -> Double? {
            (record["pois"] as? [[String: Any]])?.first { $0["name"] as? String == "Encinitas" }?["u"] as? Double
        }
        for (first, second) in pairs {
            let shift = Self.sceneShift(frame(first), frame(second), width: width, height: height) * 4
            let moved = try #require(labelU(records[second])) - (try #require(labelU(records[first])))
            #expect(abs(shift) > 20, "frames \(first) and \(second): the scene moves \(shift) px")
            #expect(
                moved * shift > 0 && abs(moved) > 0.5 * abs(shift) && abs(moved) < 1.5 * abs(shift),
                "frames \(first)–\(second): the label moved \(moved) px, the scene \(shift) px")
        }
    }

    /// How far right the middle of `first` moved to be in `second` (pixels; the best of every shift
    /// by up to 40 across and 15 down or up, by the mean absolute difference of the overlap).
    static func sceneShift(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>, width: Int, height: Int) -> Double {
        let a = Array(first)
        let b = Array(second)
        var best = (difference: Int.max, x: 0)
        for dy in -15...15 {
            for dx in -40...40 {
                var total = 0
                for y in 30..<(height - 30) {
                    let rowA = y * width
                    let rowB = (y + dy) * width + dx
                    for x in 45..<(width - 45) { total += abs(Int(a[rowA + x]) - Int(b[rowB + x])) }
                }
                if total < best.difference { best = (total, dx) }
            }
        }
        return Double(best.x)
    }

    /// Each frame's pitch and roll are the camera's: its gravity vector (GRAV) turned into the
    /// picture's frame by the image orientation (IORI), as ``GPMFReference/attitudes`` computes them
    /// on its own, at the frame's time. arcapture samples them at the camera's orientation samples
    /// (its turns, CORI, at 30 Hz; before those, at the course's headings, 18 Hz, the largest
    /// difference was 0.19°) and the timeline interpolates between those (bounds 0.5° at most,
    /// 0.05° on average).
    static func expectAttitude(records: [[String: Any]], times: [Double], reference: GPMFReference) throws {
        let attitudes = reference.attitudes
        #expect(attitudes.count == 316, "GRAV samples in the clip")
        var differences: [Double] = []
        for (record, time) in zip(records, times) {
            guard let (a, b, fraction) = bracket(attitudes, at: time, time: \.time) else { continue }
            let pose = try #require(record["pose"] as? [String: Double])
            let pitch = a.pitch + (b.pitch - a.pitch) * fraction
            let roll = a.roll + (b.roll - a.roll) * fraction
            differences += [abs((pose["pitch_deg"] ?? 99) - pitch), abs((pose["roll_deg"] ?? 99) - roll)]
        }
        #expect(differences.count > 600, "the frames within the gravity samples")
        #expect((differences.max() ?? 99) < 0.5, "largest: \(differences.max() ?? 99)°")
        #expect(differences.reduce(0, +) / Double(max(differences.count, 1)) < 0.05)
        // The clip looks down at the path (about 7° at first, 19° at the end): no level default.
        let pitches = records.compactMap { ($0["pose"] as? [String: Double])?["pitch_deg"] }
        #expect(pitches.allSatisfy { $0 < -4 }, "\(pitches.max() ?? 0)")
    }

    @Test("a Karma drone's video, no --track: each frame's pose is the drone's position and yaw at the frame's time")
    func posesFromKarmaTelemetry() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = try await KarmaTelemetryVideo(from: Self.clip, in: directory)
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run([
            "annotate", video.path.path, "--pois", Self.carlsbad, "--hfov", "118", "--max-distance", "40000",
            "--output", directory.appendingPathComponent("ride.mp4").path, "--sidecar", sidecar,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(GLPI at 4.0 Hz, the Karma drone's"), "\(result.stderr)")
        let records = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let times = try await frameTimes(video.path.path).compactMap(Double.init)
        #expect(records.count == 315 && times.count == 315)
        // The video starts at boot time 100 (each packet's first sample is 100 s + its time), so a
        // sample's time in the video is its boot time − 100; ATTD's are 6 ms before GLPI's.
        let samples = video.packets.flatMap(\.samples).map { (time: $0.bootTime - 100, sample: $0) }
        var compared = 0
        for (record, time) in zip(records, times) {
            guard let (a, b, fraction) = Self.bracket(samples, at: time, time: \.time) else { continue }
            let pose = try #require(record["pose"] as? [String: Double])
            let latitude = a.sample.latitude + (b.sample.latitude - a.sample.latitude) * fraction
            let longitude = a.sample.longitude + (b.sample.longitude - a.sample.longitude) * fraction
            #expect(abs((pose["lat"] ?? 0) - latitude) < 1e-7, "frame at \(time) s")
            #expect(abs((pose["lon"] ?? 0) - longitude) < 1e-7, "frame at \(time) s")
            let yawFraction = (time + 0.006 - a.time) / (b.time - a.time)
            let yaw = a.sample.yaw + (b.sample.yaw - a.sample.yaw) * yawFraction
            #expect(abs((pose["heading_deg"] ?? 0) - (360 + yaw * 180 / .pi)) < 0.01, "frame at \(time) s")
            #expect(
                abs(pose["pitch_deg"] ?? 1) < 1e-6 && abs(pose["roll_deg"] ?? 1) < 1e-6,
                "the gimbal's, not the airframe's")
            compared += 1
        }
        #expect(compared > 300, "the frames within the samples")
    }

    @Test("Matroska with Motion JPEG: every frame a JPEG at its time (ms), audio copied, data tracks named as left out")
    func mjpegInMatroska() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("ride.mkv").path
        let result = try await Binary.run([
            "annotate", Self.clip, "--pois", Self.carlsbad, "--hfov", "118", "--heading-from-course",
            "--codec", "mjpeg", "--quality", "80", "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("not copied: stream 3 (gpmd data): Matroska cannot hold it"), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "not copied: stream 2 (tmcd data): Matroska has no timecode track; its start, 15:44:35:10, is kept "
                    + "as the video's TIMECODE tag"), "\(result.stderr)")
        let kinds = try await streams(output)
        #expect(
            kinds.first?.hasPrefix("mjpeg,video") == true && kinds.contains { $0.hasPrefix("aac,audio") }, "\(kinds)")
        let times = try await frameTimes(output).compactMap(Double.init)
        let expected = try await frameTimes(Self.clip).compactMap(Double.init)
        #expect(times.count == 315 && expected.count == 315)
        // Matroska counts time in milliseconds.
        #expect(zip(times, expected).allSatisfy { abs($0 - $1) <= 0.0005 + 1e-9 }, "\(times.prefix(5))")
        await #expect(
            try packets(output, "0:a").map { $0.split(separator: ",").suffix(2) }
                == (try packets(Self.clip, "0:a")).map { $0.split(separator: ",").suffix(2) },
            "the audio's bytes, packet for packet")
    }

    @Test("a phone's video stored turned (display matrix 90°) is drawn and written upright, with no matrix")
    func turnedVideo() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let stored = directory.appendingPathComponent("stored.mp4").path
        _ = try await tool(
            "ffmpeg",
            [
                "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-frames:v", "10", "-c:v", "libx264", "-pix_fmt",
                "yuv420p", stored,
            ])
        // The display matrix, as a phone writes it (FFmpeg 5 sets it when copying, not encoding).
        let clip = directory.appendingPathComponent("portrait.mp4").path
        _ = try await tool("ffmpeg", ["-i", stored, "-c", "copy", "-metadata:s:v:0", "rotate=90", clip])
        await #expect(try tag(clip, "stream_side_data=rotation").contains("90"), "the test's input is turned")
        let output = directory.appendingPathComponent("upright.mp4").path
        let result = try await Binary.run([
            "annotate", clip, "--pois", PackagePaths.sample("pois/geonames_places_near_datasets.geojson"),
            "--position", "45.2,13.6,100", "--start", "2020-12-18T06:16:00Z", "--hfov", "70", "--crf", "10",
            "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        await #expect(try tag(output, "stream=width,height") == "240\n320", "stored upright")
        await #expect(try tag(output, "stream_side_data=rotation").isEmpty, "no display matrix left to turn it again")
        // The picture as ffmpeg shows the input (it turns it by the matrix), against ours; the
        // marker drawn keeps them from being equal, the other way round is another picture.
        let shown = try await psnr(output, clip, filter: "[0:v][1:v]psnr")
        let otherWay = try await psnr(output, stored, filter: "[1:v]transpose=clock[r];[0:v][r]psnr")
        #expect(shown > 22 && otherWay < 12, "as ffmpeg turns it: \(shown) dB; turned the other way: \(otherWay) dB")
    }

    /// The average PSNR ffmpeg's `psnr` filter finds between two videos.
    private func psnr(_ first: String, _ second: String, filter: String) async throws -> Double {
        let run = try await tool(
            "ffmpeg", ["-v", "info", "-i", first, "-i", second, "-lavfi", filter, "-f", "null", "-"])
        return run.stderr.split(separator: " ").first { $0.hasPrefix("average:") }
            .flatMap { Double($0.dropFirst("average:".count)) } ?? 0
    }

    @Test("MJPEG footage to MP4: 4:2:2 written as 4:2:0 H.264 (what players decode), timed by --fps")
    func mjpegFootageToMP4() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("harbour.mp4").path
        let result = try await Binary.run(
            ["annotate", PackagePaths.sample("footage/harbour.mjpeg")] + AnnotateFootageTests.harbour + [
                "--output", output,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        await #expect(try tag(output, "stream=codec_name,pix_fmt,width,height") == "h264\n960\n400\nyuvj420p")
        let times = try await frameTimes(output).compactMap(Double.init)
        #expect(times.count == 48)
        #expect(times.enumerated().allSatisfy { abs($1 - Double($0) / 8) < 1e-6 }, "\(times.prefix(4))")
    }

    @Test(
        "video options refused with the reason (64): stdout, a CRF out of range, a preset x264 lacks, --crf for MJPEG")
    func refusedOptions() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = ["annotate", Self.clip, "--pois", Self.carlsbad, "--hfov", "118"]
        let cases: [([String], String)] = [
            (["--output", "-", "--format", "mp4"], "a video file is written to a file"),
            (["--output", "\(directory.path)/o.mp4", "--crf", "60"], "--crf"),
            (["--output", "\(directory.path)/o.mp4", "--preset", "quick"], "--preset must be one of ultrafast"),
            (
                ["--output", "\(directory.path)/o.mp4", "--codec", "av1"],
                "--codec must be h264, mjpeg, prores, qtrle, png or vp9, not 'av1'"
            ),
            (
                ["--output", "\(directory.path)/o.mov", "--codec", "vp9"],
                "--codec vp9 writes an overlay with alpha: add --overlay-only"
            ),
            (
                ["--output", "\(directory.path)/o.mkv", "--codec", "mjpeg", "--crf", "20"],
                "Motion JPEG is encoded at --quality"
            ),
            (["--output", "\(directory.path)/o.mjpeg", "--crf", "20"], "are for a video file"),
            (["--output", "\(directory.path)/o.mp4", "--x264-params", "threads = 1"], "KEY=VALUE pairs joined by ':'"),
            (
                ["--output", "\(directory.path)/o.mkv", "--codec", "mjpeg", "--x264-params", "threads=1"],
                "Motion JPEG is encoded at --quality"
            ),
            (["--output", "\(directory.path)/o.avi"], "arcapture writes a video (FILE.mp4, FILE.mov, FILE.mkv)"),
        ]
        for (arguments, message) in cases {
            let result = try await Binary.run(base + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing written")
    }

    @Test("--x264-params reach libx264 (bframes=0: no B-frames), and one it cannot use is refused, nothing written")
    func x264Parameters() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = ["annotate", Self.clip, "--pois", Self.carlsbad, "--hfov", "118"]
        // The default (veryfast) has B-frames; with these parameters none, as ffprobe reads them.
        let standard = directory.appendingPathComponent("standard.mp4").path
        let lean = directory.appendingPathComponent("lean.mp4").path
        for (output, extra) in [
            (standard, [String]()), (lean, ["--x264-params", "threads=1:rc-lookahead=0:bframes=0"]),
        ] {
            let result = try await Binary.run(base + ["--output", output] + extra)
            #expect(result.status == 0, "\(result.stderr)")
        }
        await #expect(try tag(standard, "stream=has_b_frames").hasPrefix("2"))
        await #expect(try tag(lean, "stream=has_b_frames").hasPrefix("0"))
        // FFmpeg 5.1 only warns of a parameter it cannot parse and encodes without it: refused
        // here, with the parameter named, and no file left.
        let typo = directory.appendingPathComponent("typo.mp4").path
        let refused = try await Binary.run(base + ["--output", typo, "--x264-params", "threadz=1"])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.contains("libx264 cannot use an x264 parameter given: Error parsing option 'threadz = 1'"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: typo))
    }

    @Test("Ctrl-C while writing an MP4: exit 130, and out.partial.mp4 holds the frames before it, whole and indexed")
    func interruptedVideo() async throws {
        let directory = try PackagePaths.temporaryDirectory("video-out")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        _ = try await tool(
            "ffmpeg",
            [
                "-loop", "1", "-i", AnnotateFootageTests.frame, "-vf", "crop=640:360:0:'mod(n,120)'", "-frames:v", "60",
                "-q:v", "4", "-f", "mjpeg", "-y", clip,
            ])
        // The signal once the temporary file has frames (x264 holds a few back, so its header
        // alone is not enough).
        let output = directory.appendingPathComponent("out.mp4").path
        let (status, stderr) = try InterruptedAnnotation.run(
            arguments: [
                "--pois", AnnotateFootageTests.pois, "--hfov", "70", "--position", "45.2,13.6,100", "--start",
                "2020-12-18T06:16:00Z", "--fps", "2", "--workers", "1",
            ], footage: try Data(contentsOf: URL(fileURLWithPath: clip)), output: output, bytes: 1000)
        #expect(status == 130, "\(stderr)")
        let partial = directory.appendingPathComponent("out.partial.mp4").path
        let frames = try await frameTimes(partial).count
        #expect(frames > 0 && frames <= 60)
        #expect(stderr.contains("\(frames) out"), "the summary counts what the file holds: \(stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                "clip.mjpeg", "out.partial.mp4",
            ])
    }
}
