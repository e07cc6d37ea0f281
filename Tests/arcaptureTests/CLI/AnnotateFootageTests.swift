import CaptureKit
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCLI
@testable import ArcaptureCore
@testable import JPEGKit

/// `arcapture annotate FOOTAGE`: the built binary over MJPEG, Y4M and folders of geotagged photos,
/// checked with ffmpeg/ffprobe (independent readers).
@Suite("arcapture annotate (footage)")
struct AnnotateFootageTests {
    static let frame = PackagePaths.sample("frames/lund-640x480.jpg")
    static let pois = PackagePaths.sample("pois/geonames_places_near_datasets.geojson")
    static let track = PackagePaths.sample("gpx/around-visnjan-with-car.gpx")

    private func ffmpeg(_ arguments: [String]) async throws {
        _ = try await ProcessRunner.run(tool: "ffmpeg", ["-v", "error"] + arguments, install: "apt-get install ffmpeg")
    }

    private func frameCount(_ path: String) async throws -> String {
        try await ProcessRunner.run(
            tool: "ffprobe",
            [
                "-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames,width,height,pix_fmt", "-of",
                "csv=p=0", path,
            ],
            install: "apt-get install ffmpeg"
        ).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Common arguments: POIs around Višnjan, the car's track, 2 fps from 06:16:00.
    private var along: [String] {
        [
            "--pois", Self.pois, "--hfov", "70", "--track", Self.track, "--start", "2020-12-18T06:16:00Z", "--fps", "2",
            "--heading-from-course", "--max-distance", "20000",
        ]
    }

    @Test("--position with footage (a camera on a mast) annotates every frame with that pose, not only the first")
    func fixedPoseFootage() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        try await ffmpeg([
            "-loop", "1", "-i", Self.frame, "-vf", "crop=640:360:0:'n*4'", "-frames:v", "6", "-q:v", "3", "-f",
            "mjpeg", "-y", clip,
        ])
        let output = directory.appendingPathComponent("out.mjpeg").path
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let run = try await Binary.run([
            "annotate", clip, "--pois", Self.pois, "--hfov", "70", "--position", "45.2735,13.7142,300",
            "--orientation", "90,0,0", "--max-distance", "20000", "--output", output, "--sidecar", sidecar,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("6 frames in, 6 out (6 annotated"), "\(run.stderr)")
        #expect(run.stderr.contains("one fixed pose for every frame"))
        let probed = try await frameCount(output)
        #expect(probed.hasPrefix("640,360,") && probed.hasSuffix(",6"), "\(probed)")
        let records = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(records.count == 6)
        for record in records {
            let pose = try #require(record["pose"] as? [String: Any])
            #expect(pose["lat"] as? Double == 45.2735 && pose["lon"] as? Double == 13.7142)
            #expect(pose["heading_deg"] as? Double == 90)
        }
        // With a track as well, it is refused: one fixed pose, or a track.
        let both = try await Binary.run([
            "annotate", clip, "--pois", Self.pois, "--hfov", "70", "--position", "45.2735,13.7142,300",
            "--track", Self.track, "--output", output, "--force",
        ])
        #expect(both.status == 64)
        #expect(both.stderr.contains("--position and --track are alternatives"))
    }

    @Test("--minimap draws a plan view inset at the top right of every frame, and nothing else changes")
    func minimap() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let harbour = [
            PackagePaths.sample("footage/harbour.mjpeg"), "--track", PackagePaths.sample("footage/harbour.gpx"),
            "--start", "2022-08-14T11:12:32Z", "--fps", "8", "--heading-from-course", "--camera",
            PackagePaths.sample("footage/harbour-camera.yaml"), "--height-above-ground", "3", "--pois",
            PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"), "--route",
            PackagePaths.sample("routes/west-harbour-tour.geojson"),
        ]
        for (name, extra) in [("plain", [String]()), ("inset", ["--minimap"])] {
            let run = try await Binary.run(
                ["annotate"] + harbour + extra + [
                    "--output", directory.appendingPathComponent("\(name)-%02n.jpg").path,
                ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        for frame in ["01", "30", "48"] {
            let plain = try JPEGDecoder().decode(
                Array(try Data(contentsOf: directory.appendingPathComponent("plain-\(frame).jpg"))))
            let inset = try JPEGDecoder().decode(
                Array(try Data(contentsOf: directory.appendingPathComponent("inset-\(frame).jpg"))))
            // 960x400: a square of 144 pixels, 11 in from the top right.
            var inside = 0
            var outside = 0
            for y in 0..<400 {
                for x in 0..<960 where abs(Int(plain.planes[0][x, y]) - Int(inset.planes[0][x, y])) > 8 {
                    if x >= 960 - 144 - 11 - 2 && x <= 960 - 11 + 2 && y >= 9 && y <= 11 + 144 + 2 {
                        inside += 1
                    } else {
                        outside += 1
                    }
                }
            }
            #expect(inside > 144 * 144 / 4, "frame \(frame): the inset (\(inside) pixels changed)")
            #expect(outside < 40, "frame \(frame): nothing else (\(outside))")
        }
    }

    @Test("MJPEG in, MJPEG out: every frame annotated, in order, byte-identical with 1 or 3 workers")
    func mjpegDeterministic() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        try await ffmpeg([
            "-loop", "1", "-i", Self.frame, "-vf", "crop=640:360:0:'n*4'", "-frames:v", "20", "-q:v", "3", "-f",
            "mjpeg", "-y", clip,
        ])
        var outputs: [Data] = []
        for workers in ["1", "3"] {
            let output = directory.appendingPathComponent("out-\(workers).mjpeg").path
            let result = try await Binary.run(["annotate", clip] + along + ["--workers", workers, "--output", output])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == output + "\n")
            #expect(result.stderr.contains("20 frames in, 20 out (20 annotated, 0 without a pose passed through)"))
            #expect(!result.stderr.contains("\r"), "no progress line when stderr is not a terminal")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        #expect(outputs[0] == outputs[1])
        await #expect(try frameCount(directory.appendingPathComponent("out-1.mjpeg").path).hasPrefix("640,360,"))
        await #expect(try frameCount(directory.appendingPathComponent("out-1.mjpeg").path).hasSuffix(",20"))
        #expect(outputs[0] != (try Data(contentsOf: URL(fileURLWithPath: clip))), "frames were drawn on")
    }

    @Test("Y4M in, Y4M out; frames before the track pass through unannotated and are counted")
    func y4mPassThrough() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.y4m").path
        try await ffmpeg([
            "-loop", "1", "-i", Self.frame, "-vf", "crop=320:240:0:0,format=yuv422p", "-r", "2", "-frames:v", "10",
            "-strict", "-1", "-y", clip,
        ])
        let output = directory.appendingPathComponent("out.y4m").path
        // The track starts at 06:15:50 and poses are extrapolated up to 1 s: the frames at 06:15:48
        // and 06:15:48.5 have none.
        var arguments = ["annotate", clip] + along + ["--output", output]
        arguments[arguments.firstIndex(of: "2020-12-18T06:16:00Z") ?? 0] = "2020-12-18T06:15:48Z"
        let result = try await Binary.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("10 frames in, 10 out (8 annotated, 2 without a pose passed through)"))
        await #expect(try frameCount(output) == "320,240,yuv422p,10")
        // ffmpeg's yuv422p is video (limited) range, and the output says so, as the input did not
        // claim full range.
        let head = String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)).prefix(80), as: UTF8.self)
        #expect(head.contains("XCOLORRANGE=LIMITED"))
        // A passed-through frame is the input's, sample for sample.
        let input = Array(try Data(contentsOf: URL(fileURLWithPath: clip)))
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: output)))
        let inputFrame = input.firstRange(of: Array("FRAME\n".utf8)).map { input[$0.upperBound...].prefix(320 * 240) }
        let writtenFrame = written.firstRange(of: Array("FRAME\n".utf8)).map {
            written[$0.upperBound...].prefix(320 * 240)
        }
        #expect(inputFrame.map(Array.init) == writtenFrame.map(Array.init))
    }

    @Test("a GoPro MP4 annotates from its own GPS, no --track: every frame, on the GPS clock, as Y4M in full range")
    func goProVideo() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("video/max-heromode.mp4")
        let output = directory.appendingPathComponent("out.y4m").path
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run([
            "annotate", clip, "--pois", PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"), "--hfov",
            "118", "--heading-from-course", "--max-distance", "40000", "--output", output, "--sidecar", sidecar,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("poses from \(clip)'s own GPS: 191 fixes from 11 GPMF payloads"))
        #expect(result.stderr.contains("315 frames in, 315 out (315 annotated, 0 without a pose passed through)"))
        await #expect(try frameCount(output) == "848,480,yuv420p,315")
        let head = String(decoding: try Data(contentsOf: URL(fileURLWithPath: output)).prefix(80), as: UTF8.self)
        #expect(head.hasPrefix("YUV4MPEG2 W848 H480 F30000:1001 "), "the container's exact rate: \(head)")
        #expect(head.contains("XCOLORRANGE=FULL"), "GoPro's full range kept")
        let records = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 315)
        #expect((records.first?["time"] as? String)?.hasPrefix("2019-11-18T23:45:15") == true, "the GPS clock")
        let names = Set(records.flatMap { ($0["pois"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } })
        #expect(names.contains("Encinitas"), "the towns to the south-east are drawn: \(names.sorted())")
    }

    @Test(
        "a drone clip and a logger an hour and 2 s ahead: refused as they are; --offset auto matches them and says so")
    func offsetAuto() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("video/karma.mp4")
        let logger = directory.appendingPathComponent("logger.gpx").path
        try await ExifToolGPSTrack(video: clip).gpx(ahead: 3602).write(
            toFile: logger, atomically: true, encoding: .utf8)
        func annotate(_ offset: [String], _ name: String) async throws -> ProcessRunner.Result {
            try await Binary.run(
                [
                    "annotate", clip, "--track", logger, "--pois",
                    PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"), "--hfov", "118",
                    "--max-distance", "40000", "--output", directory.appendingPathComponent("\(name).y4m").path,
                    "--sidecar", directory.appendingPathComponent("\(name).jsonl").path,
                ] + offset)
        }
        let plain = try await annotate([], "plain")
        #expect(plain.status == 1)
        #expect(plain.stderr.contains("all miss the track"), "\(plain.stderr)")
        let matched = try await annotate(["--offset", "auto"], "matched")
        #expect(matched.status == 0, "\(matched.stderr)")
        #expect(
            matched.stderr.contains(
                "note: time: the first frame at 2017-04-17T19:27:57.340Z from the video's GPS clock (its GPMF telemetry), "
                    + "+3602.0 s (--offset auto) found by matching the footage's own positions with the track (median 0.0 m "
                    + "apart, ±0.0 s over 5 windows; probably a time zone, +1 h)"), "\(matched.stderr)")
        #expect(matched.stderr.contains("362 frames in, 362 out (362 annotated"), "\(matched.stderr)")
        let records = try String(
            contentsOfFile: directory.appendingPathComponent("matched.jsonl").path, encoding: .utf8
        )
        .split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        // The GPS clock's 19:27:57.340 on the logger's clock.
        let firstTime = records.first?["time"] as? String
        let first = try #require(firstTime.flatMap { UTCTime.parse($0) })
        let expected = try #require(UTCTime.parse("2017-04-17T19:27:57.340Z")).addingTimeInterval(3602)
        #expect(abs(first.timeIntervalSince(expected)) < 0.01, "\(records.first ?? [:])")
        // A number still works as before; 'auto' for a clip with no other track is refused (64).
        let given = try await annotate(["--offset", "3602"], "given")
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stderr.contains("+3602 s (--offset)"))
        let own = try await Binary.run([
            "annotate", clip, "--pois", PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"), "--hfov",
            "118", "--offset", "auto", "--output", directory.appendingPathComponent("own.y4m").path,
        ])
        #expect(own.status == 64)
        #expect(
            own.stderr.contains("--offset auto matches the footage's own GPS with a separate track: give --track FILE"))
    }

    @Test("a video's own times: a variable frame rate's frames are posed at their presentation times")
    func variableRateVideo() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("vfr.mkv").path
        try await ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10,settb=1/1000,setpts='if(lt(N,10),N/10,1+(N-10)/4)/TB'",
            "-frames:v", "15", "-fps_mode", "vfr", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip,
        ])
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run([
            "annotate", clip, "--pois", Self.pois, "--position", "45.2,13.6,100", "--start", "2020-12-18T06:16:00Z",
            "--hfov", "70",
            "--output", directory.appendingPathComponent("f-%02n.jpg").path, "--sidecar", sidecar,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let times = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["time"] as? String
        }
        // Seconds after --start, from the sidecar's millisecond times.
        let start = try #require(UTCTime.parse("2020-12-18T06:16:00Z"))
        let offsets = times.compactMap { $0.flatMap(UTCTime.parse)?.timeIntervalSince(start) }
        let expected: [Double] = (0..<10).map { Double($0) / 10 } + (0..<5).map { 1 + Double($0) / 4 }
        #expect(offsets.count == 15)
        #expect(zip(offsets, expected).allSatisfy { abs($0 - $1) < 0.0015 }, "0.1 s apart, then 0.25: \(times)")
    }

    @Test("a video without GPS of its own needs --track (64); a video cut short is 65 naming the file")
    func videoWithoutTelemetry() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("plain.mp4").path
        try await ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=160x120:rate=5", "-frames:v", "5", "-c:v", "libx264", clip,
        ])
        let output = directory.appendingPathComponent("out.mjpeg").path
        let noTrack = try await Binary.run(["annotate", clip, "--pois", Self.pois, "--hfov", "70", "--output", output])
        #expect(noTrack.status == 64)
        #expect(noTrack.stderr.contains("give --track FILE: \(clip) carries no GPS of its own"))
        let cut = directory.appendingPathComponent("cut.mp4")
        let whole = try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("video/max-heromode.mp4")))
        try whole.prefix(whole.count / 2).write(to: cut)
        let cutRun = try await Binary.run([
            "annotate", cut.path, "--pois", Self.pois, "--hfov", "70", "--output", output,
        ])
        #expect(cutRun.status == 65)
        #expect(cutRun.stderr.contains("\(cut.path): not a video file FFmpeg can read: moov atom not found"))
        #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
    }

    /// The harbour sample's pose, camera, POIs, route and style (the README's first command).
    static let harbour: [String] = [
        "--track", PackagePaths.sample("footage/harbour.gpx"), "--start", "2022-08-14T11:12:32Z", "--fps", "8",
        "--heading-from-course", "--camera", PackagePaths.sample("footage/harbour-camera.yaml"),
        "--height-above-ground", "3", "--pois", PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"),
        "--max-markers", "12", "--route", PackagePaths.sample("routes/west-harbour-tour.geojson"),
    ]

    @Test("the README's sample: all 48 harbour frames annotated with the route's panel; the sidecar agrees")
    func harbourSample() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run(
            ["annotate", PackagePaths.sample("footage/harbour.mjpeg")] + Self.harbour + [
                "--style", PackagePaths.sample("styles/night.json"), "--output", directory.path + "/%03n.jpg",
                "--sidecar", sidecar,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("48 frames in, 48 out (48 annotated, 0 without a pose passed through)"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".jpg") }
        #expect(names.sorted().first == "001.jpg" && names.sorted().last == "048.jpg" && names.count == 48)
        let lines = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 48)
        // The boat is on the route's first leg, 260 m before its first turn: the panel says so, and
        // central Helsinki's POIs (2.5-2.7 km north-east) are drawn on every frame.
        #expect(lines.allSatisfy { $0.contains("\"instruction\":\"Bear left in") })
        #expect(lines.allSatisfy { $0.contains("\"distance_m\":26") || $0.contains("\"distance_m\":25") })
    }

    @Test("a relative template whose folder is missing (frames/f-%03n.jpg, from the working directory) makes it")
    func relativeTemplateFolder() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("footage/harbour.mjpeg")
        // Run from the directory, as a user in their own folder would (the test's is the package's).
        let quoted = ([Binary.path, "annotate", clip] + Self.harbour + ["--output", "frames/f-%03n.jpg"]).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        let run = try await Binary.run(
            executable: "/bin/sh", arguments: ["-c", "cd '\(directory.path)' && exec " + quoted.joined(separator: " ")])
        #expect(run.status == 0, "\(run.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("frames").path)
        #expect(made.filter { $0.hasPrefix("f-") && $0.hasSuffix(".jpg") }.count == 48, "\(made)")
    }

    @Test(
        "--output to a device (a run for its speed) or a FIFO a player reads: written into without --force, the node kept; the FIFO's reader gets the file's bytes"
    )
    func deviceAndPipeOutputs() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("footage/harbour.mjpeg")
        let null = DeviceNodes.null(in: directory)
        let device = try #require(DeviceNodes.node(null))
        for format in ["mjpeg", "y4m", "mp4"] {
            let run = try await Binary.run(["annotate", clip] + Self.harbour + ["--output", null, "--format", format])
            #expect(run.status == 0, "\(format): \(run.stderr)")
            let after = DeviceNodes.node(null)
            #expect(after?.type == S_IFCHR && after?.device == device.device, "\(format): still the device")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "null" }.isEmpty,
            "no twin left beside the device")

        // A FIFO read by cat into a file: the same bytes as the run written to a file.
        let file = directory.appendingPathComponent("file.mjpeg").path
        let written = try await Binary.run(["annotate", clip] + Self.harbour + ["--output", file])
        #expect(written.status == 0, "\(written.stderr)")
        let pipe = directory.appendingPathComponent("pipe").path
        let copied = directory.appendingPathComponent("copied.mjpeg").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let cat = Process()
        cat.executableURL = URL(fileURLWithPath: "/bin/sh")
        cat.arguments = ["-c", "exec cat \"$0\" > \"$1\"", pipe, copied]
        try cat.run()
        let piped = try await Binary.run(["annotate", clip] + Self.harbour + ["--output", pipe])
        // A run that failed before opening the FIFO would leave cat waiting for a writer: this
        // writer, opened and closed at once, ends it (after a run that wrote, cat has ended).
        let release = open(pipe, O_WRONLY | O_NONBLOCK)
        if release >= 0 { close(release) }
        cat.waitUntilExit()
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(cat.terminationStatus == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copied)) == Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(DeviceNodes.node(pipe)?.type == S_IFIFO)
    }

    @Test("numbered frames and the sidecar already there are not overwritten without --force (73); with it they are")
    func existingOutputsKept() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("footage/harbour.mjpeg")
        let (frames, sidecar) = (directory.path + "/%03n.jpg", directory.appendingPathComponent("frames.jsonl").path)
        let first = try await Binary.run(["annotate", clip] + Self.harbour + ["--output", frames, "--quality", "60"])
        #expect(first.status == 0, "\(first.stderr)")
        let firstFrame = directory.appendingPathComponent("001.jpg").path
        let before = try Data(contentsOf: URL(fileURLWithPath: firstFrame))

        // Run again into the same names at another quality: refused at the first frame, nothing changed.
        let again = try await Binary.run(["annotate", clip] + Self.harbour + ["--output", frames, "--quality", "90"])
        #expect(again.status == 73)
        #expect(again.stderr.contains("cannot write '\(firstFrame)': it exists; use --force to overwrite it"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: firstFrame)) == before)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.filter { $0.hasSuffix(".jpg") }.count == 48 && !left.contains { $0.hasSuffix(".tmp") })

        // A sidecar that exists is refused before any work, even with new frame names.
        try Data("kept\n".utf8).write(to: URL(fileURLWithPath: sidecar))
        let other = directory.path + "/other-%03n.jpg"
        let withSidecar = try await Binary.run(
            ["annotate", clip] + Self.harbour + ["--output", other, "--sidecar", sidecar])
        #expect(withSidecar.status == 73)
        #expect(withSidecar.stderr.contains("\(sidecar) exists; use --force to overwrite it"))
        #expect(try String(contentsOfFile: sidecar, encoding: .utf8) == "kept\n")
        #expect(!FileManager.default.fileExists(atPath: directory.path + "/other-001.jpg"))

        // --force replaces them.
        let forced = try await Binary.run(
            ["annotate", clip] + Self.harbour + [
                "--output", frames, "--quality", "90", "--sidecar", sidecar, "--force",
            ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: firstFrame)) != before)
        #expect(try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").count == 48)
    }

    /// The harbour clip's first `frames` frames in `directory`, a pose sidecar of `rows` (CSV,
    /// header first) beside it, and `annotate`'s arguments for them with orientation from the
    /// sidecar and a footage sidecar at `frames.jsonl`.
    private func poseSidecarRun(in directory: URL, frames: Int, rows: [String]) async throws -> (
        arguments: [String], sidecar: String
    ) {
        let poses = directory.appendingPathComponent("pose.csv")
        try rows.joined(separator: "\n").write(to: poses, atomically: true, encoding: .utf8)
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        try await ffmpeg([
            "-f", "mjpeg", "-i", PackagePaths.sample("footage/harbour.mjpeg"), "-frames:v", "\(frames)", "-c", "copy",
            "-f", "mjpeg", "-y", clip,
        ])
        var arguments = ["annotate", clip] + Self.harbour
        arguments.remove(at: arguments.firstIndex(of: "--heading-from-course") ?? 0)
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        return (arguments + ["--pose-sidecar", poses.path, "--sidecar", sidecar], sidecar)
    }

    @Test("orientation from --pose-sidecar and --mount-yaw; Y4M out to stdout, read by ffprobe")
    func poseSidecarToStdout() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        // One row per frame (8 fps from 11:12:32): heading 40°, 41°, …, pitch 2°, roll -1°.
        var rows = ["time,heading,pitch,roll"]
        for frame in 0..<16 {
            let time = 1_660_475_552 + Double(frame) / 8  // 2022-08-14T11:12:32Z + frame / 8 s
            rows.append("\(time),\(40 + frame),2,-1")
        }
        let (arguments, sidecar) = try await poseSidecarRun(in: directory, frames: 16, rows: rows)
        let output = directory.appendingPathComponent("out.y4m")
        // stdout into a file by the shell, as `> out.y4m` or a pipe would take it.
        let command =
            ([Binary.path] + arguments + ["--mount-yaw", "10", "--output", "-", "--format", "y4m"])
            .map { "'\($0)'" }.joined(separator: " ") + " > '\(output.path)'"
        let result = try await ProcessRunner.run(executable: "/bin/sh", arguments: ["-c", command])
        #expect(result.status == 0, "\(result.stderr)")
        await #expect(try frameCount(output.path) == "960,400,yuv422p,16")
        let lines = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 16)
        for (frame, line) in lines.enumerated() {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let pose = object?["pose"] as? [String: Double]
            #expect(abs((pose?["heading_deg"] ?? 0) - Double(50 + frame)) < 0.05, "frame \(frame)")
            // The camera turned 10° on a device pitched 2° and rolled -1° shares their tilt out
            // differently, but tilts as much (a turn about the vertical keeps it).
            let (pitch, roll) = (pose?["pitch_deg"] ?? 0, pose?["roll_deg"] ?? 0)
            #expect(abs((pitch * pitch + roll * roll).squareRoot() - 5.0.squareRoot()) < 0.01, "frame \(frame)")
        }
    }

    @Test("markers fade as the pose sidecar's heading accuracy worsens, and hide from 30°")
    func headingAccuracyFades() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Twelve frames at 8 fps: four at ±5°, four at ±20°, four at ±40°.
        var rows = ["time,heading,pitch,roll,heading_accuracy"]
        for frame in 0..<12 {
            rows.append("\(1_660_475_552 + Double(frame) / 8),47,0,0,\([5, 20, 40][frame / 4])")
        }
        let (arguments, sidecar) = try await poseSidecarRun(in: directory, frames: 12, rows: rows)
        let result = try await Binary.run(arguments + ["--output", directory.appendingPathComponent("out.mjpeg").path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 12)
        for (frame, line) in lines.enumerated() {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let opacity = object?["marker_opacity"] as? Double
            let pois = (object?["pois"] as? [Any])?.count ?? -1
            switch frame / 4 {
            case 0: #expect(opacity == nil && pois > 0, "frame \(frame)")
            case 1: #expect(opacity.map { abs($0 - 0.5) < 1e-9 } == true && pois > 0, "frame \(frame)")
            default: #expect(opacity == 0 && pois == 0, "frame \(frame)")
            }
        }
    }

    @Test("limited-range Y4M (video's) is drawn in its own range: as Y4M and as JPEG, the overlay looks the same")
    func limitedRange() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        // ffmpeg turns the sample's full-range JPEGs into limited-range yuv422p, as from an MP4.
        let clip = directory.appendingPathComponent("clip.y4m").path
        try await ffmpeg([
            "-f", "mjpeg", "-i", PackagePaths.sample("footage/harbour.mjpeg"), "-frames:v", "4", "-pix_fmt", "yuv422p",
            "-color_range", "tv", "-strict", "-1", "-y", clip,
        ])
        let y4m = directory.appendingPathComponent("out.y4m").path
        let mjpeg = directory.appendingPathComponent("out.mjpeg").path
        for output in [y4m, mjpeg] {
            let result = try await Binary.run(
                ["annotate", clip] + Self.harbour + ["--output", output, "--quality", "95"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("4 annotated"))
        }
        // ffmpeg (reading XCOLORRANGE and JPEG's full range) makes both RGB; the panel's corner
        // (top left: the plate, the icon, the text) must match. Drawn with full-range colours, the
        // Y4M's plate came out 10–15 levels too dark, and the JPEG of unstretched samples washed out.
        var pictures: [[UInt8]] = []
        for (index, output) in [y4m, mjpeg].enumerated() {
            let rgb = directory.appendingPathComponent("\(index).rgb").path
            try await ffmpeg(["-i", output, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-y", rgb])
            pictures.append(Array(try Data(contentsOf: URL(fileURLWithPath: rgb))))
        }
        #expect(pictures[0].count == 960 * 400 * 3 && pictures[1].count == 960 * 400 * 3)
        var difference = 0
        var samples = 0
        for row in 8..<56 {
            for column in 8..<200 {
                for channel in 0..<3 {
                    let index = (row * 960 + column) * 3 + channel
                    difference += abs(Int(pictures[0][index]) - Int(pictures[1][index]))
                    samples += 1
                }
            }
        }
        let mean = Double(difference) / Double(max(samples, 1))
        #expect(mean < 3, "mean difference in the panel \(mean) levels")
    }

    @Test("a folder of geotagged photos annotates with no track; numbered JPEGs come out")
    func geotaggedFolder() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["lund_01.jpg", "lund_21.jpg"] {
            try FileManager.default.copyItem(
                atPath: PackagePaths.sample("photos/\(name)"), toPath: photos.appendingPathComponent(name).path)
        }
        let out = directory.appendingPathComponent("out").path
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let sidecar = directory.appendingPathComponent("photos.jsonl").path
        let result = try await Binary.run([
            "annotate", photos.path, "--pois", Self.pois, "--hfov", "54", "--max-distance", "30000", "--output",
            out + "/%02n.jpg", "--sidecar", sidecar,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("2 frames in, 2 out (2 annotated"))
        // The Lund photos carry no EXIF time: their lines have a pose and a null time (not 1970).
        let lines = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.contains("\"pose\":{") && $0.contains("\"time\":null") && !$0.contains("1970") })
        for name in ["01.jpg", "02.jpg"] {
            await #expect(try frameCount(out + "/" + name).hasPrefix("1024,768,"))
        }
        // strftime conversions in the name take each frame's time: the Helsinki photo's EXIF says
        // 14:12:31+03:00 (the Lund photos carry no time).
        let dated = directory.appendingPathComponent("dated")
        try FileManager.default.createDirectory(at: dated, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg"),
            toPath: dated.appendingPathComponent("h.jpg").path)
        let named = try await Binary.run(
            [
                "annotate", dated.path, "--pois", PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"),
                "--hfov",
                "100", "--output", out + "/%Y%m%d-%H%M%S-%n.jpg",
            ], environment: ["TZ": "UTC"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/20220814-111231-1.jpg"))
    }

    @Test("a folder without --hfov: each photo's field of view from its EXIF lens; one without is passed through, said")
    func fieldOfViewPerPhoto() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        // Lund: a 35 mm equivalent focal length in its EXIF (52.6° across its 4:3); the Nokia photo
        // of Helsinki: no lens data at all.
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("photos/lund_21.jpg"), toPath: photos.appendingPathComponent("a.jpg").path)
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg"),
            toPath: photos.appendingPathComponent("b.jpg").path)
        func run(_ extra: [String], _ name: String) async throws -> (ProcessRunner.Result, [[String: Any]]) {
            let sidecar = directory.appendingPathComponent("\(name).jsonl").path
            let result = try await Binary.run(
                [
                    "annotate", photos.path, "--pois", Self.pois, "--max-distance", "30000", "--output",
                    directory.appendingPathComponent(name).path + "/%02n.jpg", "--sidecar", sidecar,
                ] + extra)
            let records = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            return (result, records)
        }
        let (own, ownRecords) = try await run([], "own")
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stderr.contains("note: the field of view from each photo's EXIF lens data"))
        #expect(
            own.stderr.contains(
                "frame 1 (b.jpg): no lens data in its EXIF (FocalLengthIn35mmFormat, FocalLength), so its field of "
                    + "view is unknown: passed through unannotated"), "\(own.stderr)")
        #expect(own.stderr.contains("2 frames in, 2 out (1 annotated, 1 without a pose passed through)"))
        #expect(ownRecords.count == 2 && ownRecords[1]["pose"] is NSNull, "\(ownRecords)")
        // The same place as with that field of view given (the single photo's note says 52.6°).
        let (given, givenRecords) = try await run(["--hfov", "52.63"], "given")
        #expect(given.status == 0, "\(given.stderr)")
        let drawn = { (records: [[String: Any]]) -> [String: (Double, Double)] in
            Dictionary(
                ((records.first?["pois"] as? [[String: Any]]) ?? []).compactMap { poi in
                    guard let name = poi["name"] as? String, let u = poi["u"] as? Double, let v = poi["v"] as? Double
                    else { return nil }
                    return (name, (u, v))
                }, uniquingKeysWith: { a, _ in a })
        }
        let (a, b) = (drawn(ownRecords), drawn(givenRecords))
        #expect(!a.isEmpty && Set(a.keys) == Set(b.keys), "\(a.keys.sorted()) against \(b.keys.sorted())")
        for (name, place) in a {
            let other = try #require(b[name])
            #expect(abs(place.0 - other.0) < 0.5 && abs(place.1 - other.1) < 0.5, "\(name): \(place) against \(other)")
        }
        // Footage that is not a folder of photos still needs one given.
        let clip = directory.appendingPathComponent("twice.mjpeg").path
        let frame = try Data(contentsOf: URL(fileURLWithPath: Self.frame))
        try (frame + frame).write(to: URL(fileURLWithPath: clip))
        let stream = try Binary.runBlocking([
            "annotate", clip, "--pois", Self.pois, "--track", PackagePaths.sample("gpx/around-visnjan-with-car.gpx"),
            "--output", directory.appendingPathComponent("o.mjpeg").path,
        ])
        #expect(stream.status == 64)
        #expect(stream.stderr.contains("a camera is required: --camera FILE.yaml or --hfov DEGREES (only a folder"))
    }

    @Test("a calibration for another aspect ratio is refused before any frame, naming both sizes")
    func calibrationMismatch() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("out.mjpeg").path
        var arguments =
            ["annotate", PackagePaths.sample("footage/harbour.mjpeg")] + Self.harbour + ["--output", output]
        arguments[(arguments.firstIndex(of: "--camera") ?? 0) + 1] =
            PackagePaths.root.appendingPathComponent("Tests/ARCompositorTests/Fixtures/camera-info-ros.yaml").path
        let result = try await Binary.run(arguments)
        #expect(result.status == 65)
        #expect(
            result.stderr.contains(
                "camera-info-ros.yaml: the calibration is for 640x480 and cannot be scaled to 960x400"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a damaged frame is skipped with a warning and counted; the rest are written")
    func damagedFrame() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: Self.frame)))
        // A frame whose markers are intact but whose header says it is 0 pixels wide.
        var broken = good
        if let sof = (2..<(broken.count - 9)).first(where: { broken[$0] == 0xFF && broken[$0 + 1] == 0xC0 }) {
            broken[sof + 7] = 0
            broken[sof + 8] = 0
        }
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        try Data(good + broken + good).write(to: URL(fileURLWithPath: clip))
        let output = directory.appendingPathComponent("out.mjpeg").path
        let result = try await Binary.run(["annotate", clip] + along + ["--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("frame 1: cannot be decoded"), "numbered as in the sidecar, from 0")
        #expect(result.stderr.contains("3 frames in, 2 out") && result.stderr.contains("1 damaged skipped"))
        await #expect(try frameCount(output).hasSuffix(",2"))
    }

    @Test("footage needs --output, and --track unless it is a folder of geotagged photos")
    func usage() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Two frames: footage (one JPEG is a photo).
        let clip = directory.appendingPathComponent("twice.mjpeg").path
        let frame = try Data(contentsOf: URL(fileURLWithPath: Self.frame))
        try (frame + frame).write(to: URL(fileURLWithPath: clip))
        let noOutput = try await Binary.run(["annotate", clip] + along)
        #expect(noOutput.status == 64)
        #expect(noOutput.stderr.contains("footage needs --output"), "\(noOutput.stderr)")
        let noTrack = try await Binary.run([
            "annotate", clip, "--pois", Self.pois, "--hfov", "70", "--output",
            directory.appendingPathComponent("o.mjpeg").path,
        ])
        #expect(noTrack.status == 64)
        #expect(noTrack.stderr.contains("give --track FILE"), "\(noTrack.stderr)")
        // Values out of range are refused, as `project` refuses them, not replaced by defaults.
        let output = directory.appendingPathComponent("o.mjpeg").path
        var wideLens = ["annotate", clip] + along + ["--output", output]
        wideLens[(wideLens.firstIndex(of: "--hfov") ?? 0) + 1] = "500"
        let badGround = ["annotate", clip] + along + ["--output", output, "--height-above-ground", "high"]
        for (option, arguments) in [("--hfov", wideLens), ("--height-above-ground", badGround)] {
            let refused = try await Binary.run(arguments)
            #expect(refused.status == 64, "\(option): \(refused.stderr)")
            #expect(refused.stderr.contains("\(option) must be"), "\(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    @Test("the sidecar gives each frame's pose and the POIs drawn where `arcapture project` puts them")
    func sidecarMatchesProject() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let photos = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("photos/lund_21.jpg"), toPath: photos.appendingPathComponent("a.jpg").path)
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run([
            "annotate", photos.path, "--pois", Self.pois, "--hfov", "54", "--max-distance", "30000", "--output",
            directory.appendingPathComponent("out.mjpeg").path, "--sidecar", sidecar,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(record["schema"] as? String == "arcapture.footage-frame/1")
        #expect(record["file"] as? String == "a.jpg")
        let pose = try #require(record["pose"] as? [String: Double])
        let drawn = try #require(record["pois"] as? [[String: Any]])
        #expect(!drawn.isEmpty)
        // The same pose through `project`: every POI drawn is at project's pixel.
        let position = "\(pose["lat"] ?? 0),\(pose["lon"] ?? 0),\(pose["alt_m"] ?? 0)"
        let orientation = "\(pose["heading_deg"] ?? 0),\(pose["pitch_deg"] ?? 0),\(pose["roll_deg"] ?? 0)"
        let projected = try await Binary.run([
            "project", "--pois", Self.pois, "--position", position, "--orientation", orientation, "--hfov", "54",
            "--size", "1024x768", "--json",
        ])
        let points = try #require(
            try JSONSerialization.jsonObject(with: Data(projected.stdout.utf8)) as? [[String: Any]])
        var byID: [String: (Double, Double)] = [:]
        for point in points {
            if let id = point["id"] as? String, let u = point["u"] as? Double, let v = point["v"] as? Double {
                byID[id] = (u, v)
            }
        }
        for poi in drawn {
            let id = poi["id"] as? String ?? ""
            let expected = try #require(byID[id], "\(id) is not projected")
            #expect(abs((poi["u"] as? Double ?? -1) - expected.0) < 1e-6)
            #expect(abs((poi["v"] as? Double ?? -1) - expected.1) < 1e-6)
        }
    }

    @Test("on a terminal, a progress line shows frames, rate and time left")
    func progressOnTerminal() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        try await ffmpeg([
            "-loop", "1", "-i", Self.frame, "-vf", "crop=640:360:0:'mod(n,120)'", "-frames:v", "600", "-q:v",
            "4",
            "-f", "mjpeg", "-y", clip,
        ])
        // The frames go to a reader that waits 1.5 s before reading: the run outlasts the line's
        // first updates (at 0.5 s and 1 s) however fast the machine annotates (600 small frames
        // once took under 0.5 s, and no line was due).
        let command =
            ([Binary.path, "annotate", clip] + along + ["--workers", "1", "--output", "-"]).map { "'\($0)'" }
            .joined(separator: " ") + " | { sleep 1.5; cat >/dev/null; }"
        // script(1) runs the command on a pseudo-terminal and copies what it shows to stdout.
        let shown = try await ProcessRunner.run(
            tool: "script", ["-q", "-e", "-c", command, "/dev/null"], install: "apt-get install util-linux")
        #expect(shown.status == 0, "\(shown.stdout)")
        // MJPEG files are not counted ahead: the total is estimated from the first frame's size.
        #expect(shown.stdout.contains("/≈") && shown.stdout.contains(" fps  ETA "), "\(shown.stdout.suffix(300))")
        #expect(shown.stdout.contains("600 frames in, 600 out"))
    }

    @Test("footage on stdin (`-`), MJPEG or Y4M, gives the same frames as the file")
    func standardInput() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpeg")
        try await ffmpeg([
            "-loop", "1", "-i", Self.frame, "-vf", "crop=640:360:0:'n*4'", "-frames:v", "12", "-q:v", "3", "-f",
            "mjpeg", "-y", clip.path,
        ])
        let fromFile = directory.appendingPathComponent("file.mjpeg").path
        let fromPipe = directory.appendingPathComponent("pipe.mjpeg").path
        await #expect(try Binary.run(["annotate", clip.path] + along + ["--output", fromFile]).status == 0)
        let piped = try await ProcessRunner.run(
            executable: Binary.path, arguments: ["annotate", "-"] + along + ["--output", fromPipe], input: clip)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr.contains("12 frames in, 12 out"))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: fromFile)) == Data(contentsOf: URL(fileURLWithPath: fromPipe)))

        let y4m = directory.appendingPathComponent("clip.y4m")
        try await ffmpeg([
            "-loop", "1", "-i", Self.frame, "-vf", "format=yuv444p", "-frames:v", "5", "-strict", "-1", "-y", y4m.path,
        ])
        let out = directory.appendingPathComponent("out.y4m").path
        let y4mPiped = try await ProcessRunner.run(
            executable: Binary.path, arguments: ["annotate", "-"] + along + ["--output", out], input: y4m)
        #expect(y4mPiped.status == 0, "\(y4mPiped.stderr)")
        await #expect(try frameCount(out) == "640,480,yuv444p,5")
    }

    @Test("Ctrl-C stops cleanly: exit 130, and out.partial.mjpeg holds the frames before it, each whole")
    func interrupt() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        try await ffmpeg([
            "-loop", "1", "-i", Self.frame, "-vf", "crop=640:360:0:'mod(n,120)'", "-frames:v", "60", "-q:v", "4",
            "-f", "mjpeg", "-y", clip,
        ])
        // Ctrl-C once frames are being written (the output's temporary file has some).
        let output = directory.appendingPathComponent("out.mjpeg").path
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let (status, stderr) = try InterruptedAnnotation.run(
            arguments: along + ["--workers", "1", "--sidecar", sidecar],
            footage: try Data(contentsOf: URL(fileURLWithPath: clip)), output: output)
        #expect(status == 130, "\(stderr)")
        // Never under the name a finished run's has.
        let partial = directory.appendingPathComponent("out.partial.mjpeg").path
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(stderr.contains("interrupted: \(partial) holds the"), "\(stderr)")
        #expect(stderr.contains("(\(output) is not written)"))
        let count = try await frameCount(partial)
        let frames = Int(count.split(separator: ",").last ?? "") ?? 0
        #expect(frames > 0 && frames <= 60, "\(count)")
        #expect(stderr.contains("\(frames) out"), "the summary counts what the file holds")
        // The sidecar too: a line for each frame written, under its partial name.
        let lines = try String(
            contentsOfFile: directory.appendingPathComponent("frames.partial.jsonl").path, encoding: .utf8
        ).split(separator: "\n")
        #expect(lines.count == frames)
        #expect(!FileManager.default.fileExists(atPath: sidecar))
        #expect(
            stderr.contains("interrupted: the sidecar's lines so far are in \(directory.path)/frames.partial.jsonl"))
    }

    @Test("time sync: each frame gets the track's position at start + i / fps + offset", arguments: [0.0, 2.5])
    func timeSync(offset: Double) async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A track due north along a meridian, one point every 10 s, 100 m apart: at a known time
        // the position is known exactly (linear between points in the local frame).
        let points = (0..<4).map { index in
            (lat: 45.27 + Double(index) * 0.0009, time: String(format: "2020-12-18T06:16:%02dZ", index * 10))
        }
        let gpx =
            "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"test\"><trk><trkseg>"
            + points.map { "<trkpt lat=\"\($0.lat)\" lon=\"13.71\"><ele>200</ele><time>\($0.time)</time></trkpt>" }
            .joined() + "</trkseg></trk></gpx>"
        let track = directory.appendingPathComponent("track.gpx")
        try Data(gpx.utf8).write(to: track)
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        try await ffmpeg([
            "-loop", "1", "-i", Self.frame, "-vf", "scale=320:240", "-frames:v", "7", "-q:v", "5", "-f", "mjpeg", "-y",
            clip,
        ])
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run([
            "annotate", clip, "--pois", Self.pois, "--hfov", "70", "--track", track.path, "--start",
            "2020-12-18T06:16:01Z", "--fps", "0.25", "--offset", String(offset), "--orientation", "0",
            "--geoid-separation", "0", "--output", directory.appendingPathComponent("o.mjpeg").path, "--sidecar",
            sidecar,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 7)
        for (index, line) in lines.enumerated() {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let seconds = 1 + Double(index) * 4 + offset  // after 06:16:00
            let pose = try #require(record["pose"] as? [String: Double], "frame \(index) at +\(seconds) s")
            // Along a meridian the ENU interpolation is linear in latitude to well under 1e-7°.
            #expect(abs((pose["lat"] ?? 0) - (45.27 + seconds / 10 * 0.0009)) < 1e-7, "frame \(index)")
            #expect(abs((pose["lon"] ?? 0) - 13.71) < 1e-9)
        }
    }

    @Test("a reader of stdout that stops early (`| head`) ends the run with 0 and a note of how far it got")
    func readerGoesAway() async throws {
        let directory = try PackagePaths.temporaryDirectory("footage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpeg").path
        try await ffmpeg([
            "-loop", "1", "-i", Self.frame, "-vf", "crop=640:360:0:'n'", "-frames:v", "60", "-q:v", "3", "-f", "mjpeg",
            "-y", clip,
        ])
        let command =
            ([Binary.path, "annotate", clip] + along + ["--output", "-"]).map { "'\($0)'" }.joined(separator: " ")
            + " 2>\(directory.path)/err.txt | head -c 1000 >/dev/null; echo ${PIPESTATUS[0]}"
        let result = try await ProcessRunner.run(tool: "bash", ["-c", command], install: "bash")
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        let errors = try String(contentsOfFile: directory.path + "/err.txt", encoding: .utf8)
        #expect(!errors.contains("error"), "\(errors)")
        #expect(errors.contains("note: the program reading the stream closed it after"), "\(errors)")
    }
}
