import Foundation
import TestSupport
import Testing

/// `arcapture sync` run as a user runs it, on the real tracks in samples/.
@Suite("arcapture sync")
struct SyncCommandTests {
    static let visnjan = PackagePaths.sample("gpx/around-visnjan-with-car.gpx")

    /// The track points' latitudes and longitudes, read straight from the GPX text.
    static func trackPoints() throws -> [(Double, Double)] {
        let text = try String(contentsOfFile: visnjan, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)""#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let lat = Range(match.range(at: 1), in: text), let lon = Range(match.range(at: 2), in: text),
                let latitude = Double(text[lat]), let longitude = Double(text[lon])
            else { return nil }
            return (latitude, longitude)
        }
    }

    @Test("frames placed on the track's own times land on its points; the report counts every frame")
    func onTrackPoints() async throws {
        // 06:15:50 to 06:24:24 is 514 s: at 1 fps from the first fix, frame 514 is the last fix.
        let result = try await Binary.run([
            "sync", "--track", Self.visnjan, "--frames", "515", "--fps", "1", "--start", "first-fix", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["schema"] as? String == "arcapture.sync/1")
        let track = try #require(report["track"] as? [String: Any])
        #expect(track["fixes"] as? Int == 104)
        #expect(track["start"] as? String == "2020-12-18T06:15:50.000Z")
        #expect(track["largest_gap_s"] as? Double == 49)
        let overlap = try #require(report["overlap"] as? [String: Any])
        // Three gaps exceed the 30 s limit (41 s after 06:19:56, 49 s after 06:20:37, 35 s after
        // 06:23:21): their 40 + 48 + 34 inner frames have no pose; frames on their ends do.
        #expect(overlap["frames_with_pose"] as? Int == 515 - 122)
        #expect((overlap["without_pose_by_reason"] as? [String: Int]) == ["in gaps between positions": 122])
        let samples = try #require(report["samples"] as? [[String: Any]])
        let points = try Self.trackPoints()
        let first = try #require(points.first)
        let last = try #require(points.last)
        #expect(abs((samples[0]["latitude"] as? Double ?? 0) - first.0) < 1e-9)
        #expect(abs((samples[0]["longitude"] as? Double ?? 0) - first.1) < 1e-9)
        #expect(abs((samples[2]["latitude"] as? Double ?? 0) - last.0) < 1e-9)
        #expect(abs((samples[2]["longitude"] as? Double ?? 0) - last.1) < 1e-9)
        #expect(samples[2]["time"] as? String == "2020-12-18T06:24:24.000Z")
        // GPX elevations are above sea level, put on the ellipsoid with EGM96's geoid: not approximate.
        #expect(samples[0]["altitude_approximate"] as? Bool == false)
    }

    @Test("a GoPro video against its own GPS: its frames and rate from the container, its start from the GPS clock")
    func goProVideo() async throws {
        let clip = PackagePaths.sample("video/max-heromode.mp4")
        let result = try await Binary.run(["sync", "--track", clip, "--footage", clip, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        // Without --track, the video's own GPS is the track: the same report.
        let own = try await Binary.run(["sync", "--footage", clip, "--json"])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stdout == result.stdout)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let footage = try #require(report["footage"] as? [String: Any])
        #expect(footage["kind"] as? String == "video")
        #expect(footage["frames"] as? Int == 315)
        #expect(abs((footage["fps"] as? Double ?? 0) - 30000 / 1001) < 1e-9)
        #expect(footage["start_origin"] as? String == "the video's GPS clock (its GPMF telemetry)")
        #expect((footage["first_frame"] as? String)?.hasPrefix("2019-11-18T23:45:15") == true)
        #expect((report["overlap"] as? [String: Any])?["frames_without_pose"] as? Int == 0)
        // The clip has no headings of its own, but its camera's turns (CORI) and gravity (GRAV).
        #expect(
            report["orientation"] as? String
                == "the camera's own turns (CORI), anchored to north by the course over ground (the track has no headings), pitch and roll from the camera's gravity vector"
        )
    }

    @Test("a video without GPS starts at its container's creation_time, and the report says to check it")
    func videoCreationTime() async throws {
        let directory = try PackagePaths.temporaryDirectory("sync-video")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("dashcam.mp4").path
        let make = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=5", "-frames:v", "10", "-c:v",
                "libx264", "-metadata", "creation_time=2020-12-18T06:16:00Z", clip,
            ], install: "apt-get install ffmpeg")
        #expect(make.status == 0, "\(make.stderr)")
        let result = try await Binary.run(["sync", "--track", Self.visnjan, "--footage", clip, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let footage = try #require(report["footage"] as? [String: Any])
        #expect(footage["first_frame"] as? String == "2020-12-18T06:16:00.000Z")
        #expect((footage["start_origin"] as? String)?.hasPrefix("the video's creation_time") == true)
        #expect(footage["frames"] as? Int == 10)
    }

    @Test("the text report for a boat's NMEA log with a backwards camera")
    func textReport() async throws {
        let result = try await Binary.run([
            "sync", "--track", PackagePaths.sample("nmea/bundg_zeus_9.log"), "--frames", "3000", "--fps", "25",
            "--start", "2018-08-20T09:48:00Z", "--offset", "0.5", "--mount-yaw", "180",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("149 fixes, 2018-08-20T09:47:36.000Z to 2018-08-20T09:50:04.000Z (2 min 28 s)"))
        #expect(result.stdout.contains("3000 frames at 25 fps, offset +0.500 s"))
        #expect(result.stdout.contains("2018-08-20T09:48:00.500Z to 2018-08-20T09:50:00.460Z (2 min 00 s)"))
        #expect(result.stdout.contains("heading  the track's 148 headings (compass), camera mounted at yaw 180.0°"))
        #expect(result.stdout.contains("3000 frames with a pose, 0 without"))
        // HDG 228.5–238.5° magnetic + 1.3° E, turned 180°: the camera looks between 49.8° and 59.8°.
        let headings = result.stdout.split(separator: "\n").filter {
            $0.hasPrefix("first") || $0.hasPrefix("middle") || $0.hasPrefix("last")
        }
        #expect(headings.count == 3)
        for line in headings {
            let heading = try #require(
                line.split(separator: " ").firstIndex(of: "heading").map { line.split(separator: " ")[$0 + 1] })
            let degrees = try #require(Double(heading.dropLast()))
            #expect((49.8...59.8).contains(degrees), "\(line)")
        }
    }

    @Test("footage that misses the track exits 1 and says why; the footage's EXIF time is its start")
    func noOverlap() async throws {
        let directory = try PackagePaths.temporaryDirectory("sync")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = directory.appendingPathComponent("clip.mjpg")
        let photo = try Data(
            contentsOf: URL(fileURLWithPath: PackagePaths.sample("photos/helsinki_west_harbour_nokia83.jpg")))
        try (photo + photo + photo).write(to: clip)
        let result = try await Binary.run(["sync", "--track", Self.visnjan, "--footage", clip.path, "--fps", "2"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("start from the EXIF time with its offset (OffsetTimeOriginal +03:00)"))
        #expect(result.stdout.contains("2022-08-14T11:12:31.000Z to 2022-08-14T11:12:32.000Z"))
        #expect(result.stdout.contains("3 after the track"))
        #expect(result.stdout.contains("no pose: after the track by"))
    }

    @Test("bad inputs: a missing track (66), a malformed one with its line (65), bad options (64)")
    func badInputs() async throws {
        let missing = try await Binary.run([
            "sync", "--track", "/nonexistent/track.gpx", "--frames", "10", "--fps", "1",
        ])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("/nonexistent/track.gpx: no such file"))

        let directory = try PackagePaths.temporaryDirectory("sync")
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken.gpx")
        try
            "<gpx>\n<trk><trkseg>\n<trkpt lat=\"45\" lon=\"14\"><time>2020-01-01T00:00:00Z</time></trkpt>\n</trk></gpx>\n"
            .write(to: broken, atomically: true, encoding: .utf8)
        let malformed = try await Binary.run(["sync", "--track", broken.path, "--frames", "10", "--fps", "1"])
        #expect(malformed.status == 65)
        #expect(malformed.stderr.contains("\(broken.path): line 4"))

        let noTrack = try await Binary.run(["sync", "--frames", "10", "--fps", "1"])
        #expect(noTrack.status == 64)
        #expect(noTrack.stderr.contains("--track FILE is required (unless --footage is a video with its own GPS)"))
        let noRate = try await Binary.run(["sync", "--track", Self.visnjan, "--frames", "10"])
        #expect(noRate.status == 64)
        #expect(noRate.stderr.contains("--fps is required"))
        let metadata = try await Binary.run([
            "sync", "--track", Self.visnjan, "--frames", "10", "--fps", "1", "--start", "metadata",
        ])
        #expect(metadata.status == 64)
        #expect(metadata.stderr.contains("--frames stands for footage with no time of its own: give --start TIME"))
        // Not defaulted to the track's first fix either: that is a guess, said only when asked.
        let automatic = try await Binary.run(["sync", "--track", Self.visnjan, "--frames", "10", "--fps", "1"])
        #expect(automatic.status == 64)
        #expect(automatic.stderr.contains("--start first-fix"))
        let firstFix = try await Binary.run([
            "sync", "--track", Self.visnjan, "--frames", "10", "--fps", "1", "--start", "first-fix",
        ])
        #expect(firstFix.status == 0)
        #expect(firstFix.stdout.contains("start from the track's first fix (--start first-fix)"))
        let both = try await Binary.run([
            "sync", "--track", Self.visnjan, "--frames", "10", "--fps", "1", "--heading-from-course", "--orientation",
            "90",
        ])
        #expect(both.status == 64)
    }

    static let karma = PackagePaths.sample("video/karma.mp4")

    /// The Karma clip's GPS as ExifTool reads it, written as a logger's GPX whose clock is
    /// `ahead` seconds ahead of the GPS clock, into `directory`.
    static func loggerTrack(ahead: Double, in directory: URL) async throws -> String {
        let path = directory.appendingPathComponent("logger.gpx").path
        try await ExifToolGPSTrack(video: karma).gpx(ahead: ahead).write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "a drone clip against a logger an hour and 2 s ahead: sync finds +3602 s and the time zone; --offset auto applies it"
    )
    func findsOffset() async throws {
        let directory = try PackagePaths.temporaryDirectory("sync-offset")
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = try await Self.loggerTrack(ahead: 3602, in: directory)
        let text = try await Binary.run(["sync", "--footage", Self.karma, "--track", logger])
        // The clip ends an hour before the logger's track starts: no frame has a pose (1), but
        // the report says what offset would give them one.
        #expect(text.status == 1, "\(text.stderr)")
        #expect(
            text.stdout.contains("offset   +3602.0 s ±0.0 s (5 windows) by matching the footage's own GPS"),
            "\(text.stdout)")
        #expect(text.stdout.contains("47 of 47 positions compared, a median 0.0 m apart; speeds correlate"))
        #expect(text.stdout.contains("probably a time zone: +1 h and +2.0 s"))
        #expect(text.stdout.contains("use it: --offset 3602.0, or --offset auto"))

        let report = try await Binary.run(["sync", "--footage", Self.karma, "--track", logger, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let match = try #require(json["offset_match"] as? [String: Any])
        // ExifTool times each sample of the flight streams as arcapture does: the offset is the
        // logger's to within a few milliseconds.
        #expect(abs((match["offset_s"] as? Double ?? 0) - 3602) < 0.05, "\(match)")
        #expect((match["spread_s"] as? Double ?? 1) < 0.05)
        #expect(match["likely_time_zone_s"] as? Double == 3600)
        #expect(match["reliable"] as? Bool == true && match["applied"] as? Bool == false)
        #expect(match["rival_offset_s"] is NSNull && match["problem"] is NSNull)

        let applied = try await Binary.run([
            "sync", "--footage", Self.karma, "--track", logger, "--offset", "auto", "--json",
        ])
        #expect(applied.status == 0, "\(applied.stderr)")
        let appliedJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(applied.stdout.utf8)) as? [String: Any])
        #expect((appliedJSON["offset_match"] as? [String: Any])?["applied"] as? Bool == true)
        let footage = try #require(appliedJSON["footage"] as? [String: Any])
        #expect(abs((footage["offset_s"] as? Double ?? 0) - 3602) < 0.05)
        let overlap = try #require(appliedJSON["overlap"] as? [String: Any])
        #expect(overlap["frames_with_pose"] as? Int == 362, "\(overlap)")

        // Without a separate track there is nothing to match (its own GPS is 0 s from itself).
        let own = try await Binary.run(["sync", "--footage", Self.karma, "--json"])
        #expect(own.status == 0)
        let ownJSON = try #require(try JSONSerialization.jsonObject(with: Data(own.stdout.utf8)) as? [String: Any])
        #expect(ownJSON["offset_match"] is NSNull)
    }

    @Test(
        "--offset auto refuses (64) what it cannot match, and says why: no GPS of its own, no other track, another trip"
    )
    func offsetAutoRefusals() async throws {
        let frames = try await Binary.run([
            "sync", "--track", Self.visnjan, "--frames", "10", "--fps", "1", "--start", "first-fix", "--offset", "auto",
        ])
        #expect(frames.status == 64)
        #expect(
            frames.stderr.contains("--offset auto needs footage with GPS of its own (a GoPro's)"), "\(frames.stderr)")
        let own = try await Binary.run(["sync", "--footage", Self.karma, "--offset", "auto"])
        #expect(own.status == 64)
        #expect(own.stderr.contains("give --track FILE"), "\(own.stderr)")
        // The Višnjan drive is another trip (and another year): no offset brings the two within 100 m.
        let other = try await Binary.run(["sync", "--footage", Self.karma, "--track", Self.visnjan, "--offset", "auto"])
        #expect(other.status == 64)
        #expect(other.stdout.contains("offset   not found by matching the footage's own GPS with the track"))
        #expect(other.stderr.contains("not the same trip"), "\(other.stderr)")
        // Asked for nothing, the report still says so, and the exit status is the overlap's.
        let report = try await Binary.run(["sync", "--footage", Self.karma, "--track", Self.visnjan])
        #expect(report.status == 1)
        #expect(report.stdout.contains("offset   not found"))
        let bad = try await Binary.run(["sync", "--footage", Self.karma, "--track", Self.visnjan, "--offset", "soon"])
        #expect(bad.status == 64)
        #expect(
            bad.stderr.contains("--offset must be a number of seconds (such as 2.5 or -3600) or 'auto', not 'soon'"))
    }
}
