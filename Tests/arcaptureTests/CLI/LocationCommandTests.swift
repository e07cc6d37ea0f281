import Foundation
import TestSupport
import Testing

/// `arcapture location` run as a user runs it: on a recorded log, against gpsd fed by gpsfake, and
/// against no gpsd at all.
@Suite("arcapture location")
struct LocationCommandTests {
    /// UTC with milliseconds, as the JSON lines give times.
    nonisolated(unsafe) static let iso8601: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    @Test("a recorded log plays at once: every fix and heading, as JSON lines")
    func recordedLog() async throws {
        let result = try await Binary.run(["location", PackagePaths.sample("nmea/skytraq-PX1172RH_DS.log"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let fixes = events.filter { $0["event"] as? String == "fix" }
        #expect(fixes.count == 9)
        #expect(fixes.first?["time"] as? String == "2022-03-29T00:38:32.000Z")
        #expect(abs((fixes.first?["alt_hae_m"] as? Double ?? 0) - 1107.33) < 1e-6)
        #expect(events.filter { $0["event"] as? String == "heading" }.count == 9)
        #expect(events.last?["status"] as? String == "ended")
    }

    @Test("a GoPro video's own GPS: every GPS5 sample a fix on the GPS clock, as ffprobe and the format say")
    func goProVideo() async throws {
        let clip = PackagePaths.sample("video/max-heromode.mp4")
        let reference = try await GPMFReference(video: clip)
        let result = try await Binary.run(["location", clip, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "nothing of FFmpeg's own log: \(result.stderr)")
        let fixes = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }.filter { $0["event"] as? String == "fix" }
        #expect(fixes.count == reference.packets.flatMap(\.samples).count)
        #expect((fixes.first?["time"] as? String)?.hasPrefix("2019-11-18T23:45:") == true, "the GPS clock")
        let first = try #require(reference.packets.first?.samples.first)
        #expect(abs((fixes.first?["lat"] as? Double ?? 0) - first[0]) < 1e-7)
        #expect(abs((fixes.first?["alt_hae_m"] as? Double ?? 0) - first[2]) < 1e-3, "above the ellipsoid")
    }

    @Test("a Karma drone's video: its flight controller's positions above sea level, its yaw as headings")
    func karmaVideo() async throws {
        let directory = try PackagePaths.temporaryDirectory("location-karma")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = try await KarmaTelemetryVideo(from: PackagePaths.sample("video/max-heromode.mp4"), in: directory)
        let written = video.packets.flatMap(\.samples)
        let result = try await Binary.run(["location", video.path.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        let fixes = events.filter { $0["event"] as? String == "fix" }
        let headings = events.filter { $0["event"] as? String == "heading" }
        #expect(fixes.count == written.count && headings.count == written.count)
        let first = try #require(written.first)
        #expect(
            fixes.first?["time"] as? String
                == Self.iso8601.string(
                    from: Date(timeIntervalSince1970: KarmaTelemetryVideo.clockOffset + first.bootTime)))
        #expect(fixes.first?["alt_hae_m"] is NSNull, "not above the ellipsoid")
        #expect(abs((fixes.first?["alt_msl_m"] as? Double ?? 0) - first.altitude) < 1e-3)
        #expect(headings.allSatisfy { $0["origin"] as? String == "flight-controller" })
        #expect(abs((headings.first?["heading_deg"] as? Double ?? 0) - (360 + first.yaw * 180 / .pi)) < 1e-3)
    }

    @Test("a video cut short, one without telemetry: 65 naming the file and what is wrong; a missing one 66")
    func badVideos() async throws {
        let directory = try PackagePaths.temporaryDirectory("location-video")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = PackagePaths.sample("video/max-heromode.mp4")
        let cut = directory.appendingPathComponent("cut.mp4")
        let whole = try Data(contentsOf: URL(fileURLWithPath: clip))
        try whole.prefix(whole.count / 2).write(to: cut)
        let cutRun = try await Binary.run(["location", cut.path])
        #expect(cutRun.status == 65)
        #expect(
            cutRun.stderr
                == "error: \(cut.path): not a video file FFmpeg can read: moov atom not found (Invalid data found when processing input)\n"
        )
        let videoOnly = directory.appendingPathComponent("video-only.mp4")
        let copy = try await ProcessRunner.run(
            tool: "ffmpeg", ["-v", "error", "-i", clip, "-map", "0:0", "-c", "copy", videoOnly.path],
            install: "apt-get install ffmpeg")
        #expect(copy.status == 0, "\(copy.stderr)")
        let noTelemetry = try await Binary.run(["location", videoOnly.path])
        #expect(noTelemetry.status == 65)
        #expect(noTelemetry.stderr.contains("\(videoOnly.path): no GPMF telemetry track (gpmd)"))
        let missing = try await Binary.run(["location", directory.appendingPathComponent("none.mp4").path])
        #expect(missing.status == 66)
    }

    @Test("--count on a log: the output ends with the last fix counted, nothing of the log after it")
    func countOnALog() async throws {
        let result = try await Binary.run([
            "location", PackagePaths.sample("nmea/bundg_zeus_9.log"), "--count", "2", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let events = try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(events.filter { $0["event"] as? String == "fix" }.count == 2)
        #expect(events.last?["event"] as? String == "fix", "\(result.stdout)")
        #expect(events.last?["time"] as? String == "2018-08-20T09:47:37.000Z")
    }

    @Test("gpsd through gpsfake: --count fixes, then exit 0")
    func gpsd() async throws {
        let fake = try GPSFake(log: PackagePaths.sample("nmea/skytraq-PX1172RH_DS.log"))
        defer { fake.stop() }
        let result = try await Binary.run([
            "location", "gpsd://127.0.0.1:\(fake.port)", "--count", "3", "--duration", "30",
        ])
        #expect(result.status == 0, "\(result.stderr)\n\(fake.log)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { $0.contains("  fix  ") || $0.contains("fix      ") }.count == 3, "\(result.stdout)")
        #expect(result.stdout.contains("status   no-fix"))
        #expect(result.stdout.contains("3D  44.0687851, -121.3140640, 1107.3 m"))
        print("arcapture location against gpsd:\n\(result.stdout)")
    }

    @Test("no gpsd: unavailable, exit 69; a bad source is a usage error")
    func unavailable() async throws {
        let port = try GPSFake.freePort()
        let result = try await Binary.run(["location", "gpsd://127.0.0.1:\(port)", "--duration", "1"])
        #expect(result.status == 69)
        #expect(result.stdout.contains("unavailable: cannot connect to gpsd at 127.0.0.1:\(port): Connection refused"))
        let bad = try await Binary.run(["location", "/dev/ttyUSB0@1234"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("the baud rate in '/dev/ttyUSB0@1234' must be one of 4800, 9600"))
        let missing = try await Binary.run(["location", "/nonexistent/track.gpx"])
        #expect(missing.status == 66)
    }
}
