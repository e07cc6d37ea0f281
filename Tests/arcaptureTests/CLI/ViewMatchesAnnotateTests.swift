import ARCompositor
import CaptureKit
import Dispatch
import Foundation
import GeoAR
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage
@testable import Positioning

/// One footage job: a ``GeoARView`` over footage and `arcapture annotate` with the same inputs
/// write the same bytes, frame times and poses included (the sidecars), a video's audio and
/// telemetry tracks included. Before the job was one, the view's own assembly drew a video's
/// limited range as full, copied no audio or telemetry and took no time from a video's GPS.
@Suite("The view and annotate run one footage job", .serialized, .timeLimit(.minutes(10)))
struct ViewMatchesAnnotateTests {
    static let carlsbad = PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson")

    /// Runs a footage view with `configuration` over `session`, `source` assigned once it has
    /// loaded, to its end; returns how it ended.
    static func runView(
        session: ARSession, configuration: GeoARConfiguration,
        source: @escaping @Sendable () throws -> any LocationSource
    ) async throws -> GeoARView.Summary {
        let view = GeoAR(session: session, configuration: configuration)
            .onLoaded { view in view.locationManager.locationSource = try? source() }
            .present()
        return await view.ended()
    }

    /// Records an issue unless the view's file holds annotate's bytes.
    static func expectSame(
        _ view: String, _ annotate: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let (viewBytes, annotateBytes) = (
            try Data(contentsOf: URL(fileURLWithPath: view)), try Data(contentsOf: URL(fileURLWithPath: annotate))
        )
        guard viewBytes != annotateBytes else { return }
        // Both kept, for the cause of the known issue to be found (the test's folder is deleted).
        let kept = PackagePaths.root.appendingPathComponent(".build/kept-mismatches/\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        for (path, name) in [(view, "view"), (annotate, "annotate")] {
            try? FileManager.default.copyItem(
                atPath: path,
                toPath: kept.appendingPathComponent(name + "-" + (path as NSString).lastPathComponent).path)
        }
        // Where they part (see goProVideo's known issue): the first packet (stream, times, size,
        // flags) that differs.
        var difference = ""
        if view.hasSuffix(".mp4") {
            let (a, b) = (try Self.packets(view), try Self.packets(annotate))
            if let index = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                difference = "; packet \(index) differs: view \(a[index]), annotate \(b[index])"
            } else {
                difference =
                    "; the same \(min(a.count, b.count)) packets (view \(a.count), annotate \(b.count)): the boxes differ"
            }
            // And which pictures: decoded frames whose MD5s differ (the first few), which tells a
            // drawing difference in one frame (its GOP's packets follow) from an encoder's.
            let (c, d) = (try Self.frameHashes(view), try Self.frameHashes(annotate))
            let differing = zip(c, d).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            difference +=
                "; \(differing.count) of \(min(c.count, d.count)) decoded frames differ"
                + (differing.isEmpty ? "" : " (first: \(differing.prefix(8).map(String.init).joined(separator: ", ")))")
        }
        let message =
            "\(view) (\(viewBytes.count) bytes) is not \(annotate) (\(annotateBytes.count))\(difference); both kept in "
            + kept.path
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    static func ffprobeStreams(_ path: String) async throws -> [String] {
        try await ProcessRunner.run(
            tool: "ffprobe",
            ["-v", "error", "-show_entries", "stream=codec_type,codec_tag_string", "-of", "csv=p=0", path],
            install: "apt-get install ffmpeg"
        ).stdout.split(separator: "\n").map(String.init)
    }

    /// A session with the places near Carlsbad (or those in `pois`) within 40 km, as `annotate
    /// --max-distance 40000` draws them.
    static func carlsbadSession(pois: String = carlsbad) throws -> ARSession {
        var style = OverlayStyleFile()
        style.layout.maximumDistance = 40000
        return ARSession(
            mapData: MapData(pointsOfInterest: try GeoJSONFile(contentsOf: pois).pointsOfInterest, style: style))
    }

    static func configuration(
        source: GeoARConfiguration.Source, output: FootageDestination, sidecar: String, camera: CameraGeometry,
        orientation: LivePoseTracker.OrientationChoice
    ) -> GeoARConfiguration {
        GeoARConfiguration(
            source: source, output: .footage(output, workers: 2), sidecar: sidecar, replacing: false, camera: camera,
            pose: LivePoseTracker.Options(orientation: orientation),
            handlerQueue: DispatchQueue(label: "view-matches-annotate"), messages: .silent)
    }

    /// `annotate INPUT` to Y4M and a view over `source` (its track from `track`), both with their
    /// sidecars, in `directory`: headed by the course, or by the telemetry's own headings when
    /// `orientation` is `.automatic`, at `hfov`, drawing `pois` (the places near Carlsbad); what
    /// the CLI printed, the two outputs, and how the view ended.
    static func annotateAndView(
        _ input: String, source: GeoARConfiguration.Source, in directory: URL, pois: String = carlsbad,
        hfov: Double = 118, orientation: LivePoseTracker.OrientationChoice = .course,
        track: @escaping @Sendable () throws -> RecordedTrack
    ) async throws -> (run: Binary.Result, cli: String, view: String, summary: GeoARView.Summary) {
        let cli = directory.appendingPathComponent("cli.y4m").path
        let run = try await Binary.run(
            ["annotate", input, "--pois", pois, "--hfov", String(hfov)]
                + (orientation == .course ? ["--heading-from-course"] : []) + [
                    "--max-distance", "40000", "--workers", "2", "--output", cli, "--sidecar", cli + ".jsonl",
                ])
        let viewOutput = directory.appendingPathComponent("view.y4m").path
        let summary = try await Self.runView(
            session: try Self.carlsbadSession(pois: pois),
            configuration: Self.configuration(
                source: source, output: .y4mFile(viewOutput), sidecar: viewOutput + ".jsonl",
                camera: CameraGeometry(horizontalFieldOfView: hfov), orientation: orientation),
            source: { RecordedLocationSource(track: try track(), pace: .frameDriven) })
        return (run, cli, viewOutput, summary)
    }

    @Test("a GoPro MP4 from its own GPS: the same packets (audio, GPMF copied), sidecar and (a known issue) bytes")
    func goProVideo() async throws {
        let directory = try PackagePaths.temporaryDirectory("one-job")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("video/max-heromode.mp4")
        let cli = directory.appendingPathComponent("cli.mp4").path
        let run = try await Binary.run([
            "annotate", clip, "--pois", Self.carlsbad, "--hfov", "118", "--heading-from-course", "--max-distance",
            "40000", "--workers", "2", "--output", cli, "--sidecar", cli + ".jsonl",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("315 frames in, 315 out (315 annotated"), "\(run.stderr)")

        let session = try Self.carlsbadSession()
        let viewOutput = directory.appendingPathComponent("view.mp4").path
        let summary = try await Self.runView(
            session: session,
            configuration: Self.configuration(
                source: .footage(path: clip, timing: FootageTiming()),
                output: .videoFile(viewOutput, .mp4, .standard), sidecar: viewOutput + ".jsonl",
                camera: CameraGeometry(horizontalFieldOfView: 118), orientation: .course),
            source: { RecordedLocationSource(track: try TrackFile.load(clip), pace: .frameDriven) })
        #expect(summary.footage?.progress.annotated == 315, "\(summary.ending)")
        let streams = try await Self.ffprobeStreams(viewOutput)
        #expect(streams.contains("audio,mp4a") && streams.contains("data,gpmd"), "\(streams)")
        try await Self.expectSame(viewOutput + ".jsonl", cli + ".jsonl")
        // Every packet at the same times with the same flags, the copied audio and GPMF byte for byte
        // (sizes and checksums), the video's packets as many and as timed.
        // Sorted: how the muxer cuts chunks may follow the video's sizes.
        #expect(
            try Self.packets(viewOutput, videoPayload: false).sorted()
                == Self.packets(cli, videoPayload: false).sorted())
        // The video's bytes: the view's differed from annotate's in about one full-suite run in
        // three under load (CI 2026-12-06; 2 of 6 runs of the non-VM suite beside two busy loops),
        // never when the test runs alone or annotate runs again: its sidecar the same (poses, points,
        // which are labelled), its I-frame a few dozen bytes off. x264 is not the cause (sliced
        // threads: the same stream in 16 encodes in one process and 23 processes, under load), so
        // something the view draws in a busy test process differs; until that is found (issue 43's
        // note says what was ruled out), a known issue, recorded when seen, not a failure.
        await withKnownIssue("the view's video bytes differ from annotate's in some loaded runs", isIntermittent: true)
        {
            try await Self.expectSame(viewOutput, cli)
        }
    }

    @Test("a recording in two chapters (.recording): the view poses and draws every frame as annotate does the clip")
    func chapters() async throws {
        let directory = try PackagePaths.temporaryDirectory("one-job")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chapters = try await SplitRecording.chapters(in: directory)
        let (run, cli, viewOutput, summary) = try await Self.annotateAndView(
            SplitRecording.goProClip, source: .recording(paths: chapters, timing: FootageTiming()), in: directory,
            track: { try TrackFile.load(chapters: chapters) })
        #expect(run.status == 0, "\(run.stderr)")
        #expect(summary.footage?.progress.annotated == 315, "\(summary.ending)")
        try await Self.expectSame(viewOutput + ".jsonl", cli + ".jsonl")
    }

    @Test("a DJI clip with its metadata track (djmd): the view times and poses every frame from it as annotate does")
    func djiMetadata() async throws {
        let directory = try PackagePaths.temporaryDirectory("one-job")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("video/max-heromode.mp4")
        // An Osmo Action 4's track (synthetic: `DJIMetadataVideo`), its GPS stamps putting the
        // start at 2024-05-01T10:00:00Z.
        let video = try await DJIMetadataFootageTests.osmoAction(from: clip, in: directory).path.path
        let (run, cli, viewOutput, summary) = try await Self.annotateAndView(
            video, source: .footage(path: video, timing: FootageTiming()), in: directory,
            track: { try TrackFile.load(video) })
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("(DJI metadata)"), "\(run.stderr)")
        #expect(summary.footage?.progress.annotated == 315, "\(summary.ending)")
        let first = try #require(
            String(contentsOfFile: viewOutput + ".jsonl", encoding: .utf8).split(separator: "\n").first)
        #expect(first.contains("\"time\":\"2024-05-01T10:00:00.000Z\""), "\(first)")
        try await Self.expectSame(viewOutput + ".jsonl", cli + ".jsonl")
    }

    @Test("a DJI clip with its .SRT beside it: the view poses every frame by the gimbal as annotate does")
    func djiSubtitles() async throws {
        let directory = try PackagePaths.temporaryDirectory("one-job")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The Mavic 3T's 12 cues (DJIFootageTests): 12 frames at 29.97 fps, a place straight ahead.
        let (video, pois) = try await DJIFootageTests.mavic3TClip(in: directory)
        let (run, cli, viewOutput, summary) = try await Self.annotateAndView(
            video, source: .footage(path: video, timing: FootageTiming()), in: directory, pois: pois, hfov: 60,
            orientation: .automatic, track: { try TrackFile.load(video) })
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("from the gimbal (12 samples)"), "\(run.stderr)")
        #expect(summary.footage?.progress.annotated == 12, "\(summary.ending)")
        let first = try #require(try StillFootage.firstRecord(ofSidecar: viewOutput + ".jsonl"))
        #expect((first["pose"] as? [String: Any])?["heading_deg"] as? Double == 252.7, "\(first)")
        #expect((first["pois"] as? [[String: Any]])?.first?["name"] as? String == "Ahead", "\(first)")
        try await Self.expectSame(viewOutput + ".jsonl", cli + ".jsonl")
    }

    /// The MD5 of each decoded video frame of `path`, in order (ffmpeg's framemd5 muxer).
    static func frameHashes(_ path: String) throws -> [String] {
        try ProcessRunner.runBlocking(
            tool: "ffmpeg", ["-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-"],
            install: "apt-get install ffmpeg"
        ).stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last }
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// An MP4's packets in file order (kind, stream, times, size, flags and checksum, in the order
    /// ffprobe prints them whatever the order asked for), the video's without their size and
    /// checksum unless `videoPayload`.
    static func packets(_ path: String, videoPayload: Bool = true) throws -> [String] {
        try ProcessRunner.runBlocking(
            tool: "ffprobe",
            [
                "-v", "error", "-show_entries", "packet=codec_type,stream_index,pts,dts,duration,flags,size,data_hash",
                "-show_data_hash", "CRC32", "-of", "csv=p=0", path,
            ], install: "apt-get install ffmpeg"
        ).stdout.split(separator: "\n").map { line in
            // codec_type, stream_index, pts, dts, duration, size, flags, data_hash.
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard !videoPayload, fields.first == "video", fields.count == 8 else { return String(line) }
            return (fields[0..<5] + [fields[6]]).joined(separator: ",")
        }
    }

    @Test("a drone clip against a logger an hour off: --offset auto and a view that finds its offset write the same")
    func matchedOffset() async throws {
        let directory = try PackagePaths.temporaryDirectory("one-job")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("video/karma.mp4")
        let logger = directory.appendingPathComponent("logger.gpx").path
        try await ExifToolGPSTrack(video: clip).gpx(ahead: 3602).write(
            toFile: logger, atomically: true, encoding: .utf8)
        let cli = directory.appendingPathComponent("cli.y4m").path
        let run = try await Binary.run([
            "annotate", clip, "--track", logger, "--offset", "auto", "--pois", Self.carlsbad, "--hfov", "118",
            "--heading-from-course", "--max-distance", "40000", "--workers", "2", "--output", cli, "--sidecar",
            cli + ".jsonl",
        ])
        #expect(run.status == 0, "\(run.stderr)")

        let session = try Self.carlsbadSession()
        let viewOutput = directory.appendingPathComponent("view.y4m").path
        let summary = try await Self.runView(
            session: session,
            configuration: Self.configuration(
                source: .footage(path: clip, timing: FootageTiming(findsOffset: true)),
                output: .y4mFile(viewOutput), sidecar: viewOutput + ".jsonl",
                camera: CameraGeometry(horizontalFieldOfView: 118), orientation: .course),
            source: { RecordedLocationSource(track: try TrackFile.load(logger), pace: .frameDriven) })
        #expect(summary.footage?.progress.annotated == 362, "\(summary.ending)")
        try await Self.expectSame(viewOutput, cli)
        try await Self.expectSame(viewOutput + ".jsonl", cli + ".jsonl")
    }

    @Test("a limited-range Y4M at a fixed pose: the same limited-range Y4M")
    func limitedRangeY4M() async throws {
        let directory = try PackagePaths.temporaryDirectory("one-job")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.y4m").path
        _ = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-frames:v", "12", "-pix_fmt",
                "yuv420p", "-color_range", "tv", "-strict", "-1", "-y", clip,
            ], install: "apt-get install ffmpeg")
        let head = String(decoding: try Data(contentsOf: URL(fileURLWithPath: clip)).prefix(80), as: UTF8.self)
        try #require(head.contains("XCOLORRANGE=LIMITED"), "\(head)")
        let pois = directory.appendingPathComponent("pois.geojson").path
        try Data(
            """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"a","properties":{"name":"Alpha"},"geometry":{"type":"Point","coordinates":[24.94,60.171796,20]}},
            {"type":"Feature","id":"b","properties":{"name":"Bravo"},"geometry":{"type":"Point","coordinates":[24.941,60.171796,20]}}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: pois))
        let cli = directory.appendingPathComponent("cli.y4m").path
        let run = try await Binary.run([
            "annotate", clip, "--pois", pois, "--hfov", "60", "--position", "60.17,24.94,20", "--orientation",
            "0,0,0", "--workers", "2", "--output", cli, "--sidecar", cli + ".jsonl",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("12 frames in, 12 out (12 annotated"), "\(run.stderr)")

        let session = ARSession(mapData: MapData(pointsOfInterest: try GeoJSONFile(contentsOf: pois).pointsOfInterest))
        let viewOutput = directory.appendingPathComponent("view.y4m").path
        let position = try #require(GeodeticCoordinate(latitude: 60.17, longitude: 24.94, altitude: 20))
        let summary = try await Self.runView(
            session: session,
            configuration: Self.configuration(
                source: .footage(path: clip, timing: FootageTiming()), output: .y4mFile(viewOutput),
                sidecar: viewOutput + ".jsonl", camera: CameraGeometry(horizontalFieldOfView: 60),
                orientation: .fixed(DeviceOrientation(heading: 0, pitch: 0, roll: 0))),
            source: { FixedLocationSource(position) })
        #expect(summary.footage?.progress.annotated == 12, "\(summary.ending)")
        let written = try Data(contentsOf: URL(fileURLWithPath: viewOutput))
        #expect(String(decoding: written.prefix(80), as: UTF8.self).contains("XCOLORRANGE=LIMITED"))
        try await Self.expectSame(viewOutput, cli)
        try await Self.expectSame(viewOutput + ".jsonl", cli + ".jsonl")
    }

    @Test("a folder of JPEGs along a GPX track: the same JPEG files")
    func jpegFolder() async throws {
        let directory = try PackagePaths.temporaryDirectory("one-job")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let frames = MJPEGBytes.split(
            Array(try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("footage/harbour.mjpeg")))))
        try #require(frames.count == 48)
        for (index, frame) in frames.prefix(16).enumerated() {
            try Data(frame).write(to: folder.appendingPathComponent(String(format: "f%03d.jpg", index)))
        }
        let (track, calibration, pois) = (
            PackagePaths.sample("footage/harbour.gpx"), PackagePaths.sample("footage/harbour-camera.yaml"),
            PackagePaths.sample("pois/helsinki_center_osm_pois.geojson")
        )
        let cliFolder = directory.appendingPathComponent("cli").path
        let run = try await Binary.run([
            "annotate", folder.path, "--pois", pois, "--track", track, "--fps", "8", "--start",
            "2022-08-14T11:12:32Z", "--camera", calibration, "--height-above-ground", "3", "--heading-from-course",
            "--workers", "2", "--output", cliFolder + "/%03n.jpg", "--sidecar", cliFolder + "/frames.jsonl",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("16 frames in, 16 out (16 annotated"), "\(run.stderr)")

        let session = ARSession(mapData: MapData(pointsOfInterest: try GeoJSONFile(contentsOf: pois).pointsOfInterest))
        let viewFolder = directory.appendingPathComponent("view").path
        let start = try #require(UTCTime.parse("2022-08-14T11:12:32Z"))
        let summary = try await Self.runView(
            session: session,
            configuration: Self.configuration(
                source: .footage(path: folder.path, clock: FootageClock(start: start, framesPerSecond: 8)),
                output: .files(OutputTemplate(pattern: viewFolder + "/%03n.jpg")),
                sidecar: viewFolder + "/frames.jsonl",
                camera: CameraGeometry(calibrationFile: calibration, heightAboveGround: 3), orientation: .course),
            source: { RecordedLocationSource(track: try TrackFile.load(track), pace: .frameDriven) })
        #expect(summary.footage?.progress.annotated == 16, "\(summary.ending)")
        let names = try FileManager.default.contentsOfDirectory(atPath: cliFolder).sorted()
        #expect(names.count == 17)
        #expect(try FileManager.default.contentsOfDirectory(atPath: viewFolder).sorted() == names)
        for name in names { try await Self.expectSame(viewFolder + "/" + name, cliFolder + "/" + name) }
    }
}
