import Foundation
import TestSupport
import Testing

/// DJI footage annotated from the subtitle file beside it (issue 40, item 1). No DJI clip is
/// available under a licence the project may use, so each clip here is synthetic: ffmpeg's test
/// pattern at the frame rate of a real subtitle file's timing (`samples/dji-srt/`), named as a DJI
/// drone names its files, with that real file beside it.
@Suite("arcapture annotate: DJI footage from its .SRT")
struct DJIFootageTests {
    /// A clip of `frames` frames at `rate`, written by ffmpeg to `path`.
    static func clip(_ path: String, frames: Int, rate: String, creationTime: String? = nil) async throws {
        var arguments = [
            "-v", "error", "-f", "lavfi", "-i", "testsrc=size=640x360:rate=\(rate)", "-frames:v", "\(frames)",
            "-c:v", "libx264", "-pix_fmt", "yuv420p",
        ]
        if let creationTime { arguments += ["-metadata", "creation_time=\(creationTime)"] }
        let made = try await ProcessRunner.run(
            tool: "ffmpeg", arguments + ["-y", path], install: "apt-get install ffmpeg")
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// Points 2 km from `origin` at each bearing (a great circle on a sphere, the test's own
    /// geometry), as GeoJSON.
    static func pointsOfInterest(from origin: (Double, Double), bearings: [(String, Double)]) -> String {
        let radius = 6_371_008.8
        let distance = 2000 / radius
        let latitude = origin.0 * .pi / 180
        let longitude = origin.1 * .pi / 180
        let features = bearings.map { name, bearing in
            let b = bearing * .pi / 180
            let lat = asin(sin(latitude) * cos(distance) + cos(latitude) * sin(distance) * cos(b))
            let lon =
                longitude + atan2(sin(b) * sin(distance) * cos(latitude), cos(distance) - sin(latitude) * sin(lat))
            return
                #"{"type":"Feature","properties":{"name":"\#(name)"},"geometry":{"type":"Point","coordinates":[\#(lon * 180 / .pi),\#(lat * 180 / .pi)]}}"#
        }
        return #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#
    }

    /// A clip for the Mavic 3T's real subtitles in `directory`: `DJI_0001.MP4`, ffmpeg's pattern in
    /// 12 frames at 29.97 fps (the file's 12 cues are 1/30 s apart: 00:00:00,000, 00:00:00,033, …),
    /// the subtitles beside it as `subtitles`, and places 2 km away at `bearings` from its first fix
    /// (50.106373, 14.495168; the gimbal points at 252.7°, gb_yaw -107.3, 10.7° down) in
    /// `pois.geojson`. Returns the clip's and the places' paths.
    static func mavic3TClip(
        in directory: URL, subtitles: String = "DJI_0001.SRT", bearings: [(String, Double)] = [("Ahead", 252.7)]
    ) async throws -> (video: String, pois: String) {
        let video = directory.appendingPathComponent("DJI_0001.MP4").path
        try await clip(video, frames: 12, rate: "30000/1001")
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("dji-srt/ruz76/DJI_MAVIC_3T.SRT"),
            toPath: directory.appendingPathComponent(subtitles).path)
        let pois = directory.appendingPathComponent("pois.geojson").path
        try pointsOfInterest(from: (50.106373, 14.495168), bearings: bearings)
            .write(toFile: pois, atomically: true, encoding: .utf8)
        return (video, pois)
    }

    @Test("a Mavic 3T clip: its .srt found beside it, posed by the gimbal, timed by the drone's clock in TZ")
    func mavic3T() async throws {
        let directory = try PackagePaths.temporaryDirectory("dji")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Any case: a card copied by a tool that lowercases extensions.
        let subtitles = directory.appendingPathComponent("DJI_0001.srt").path
        let (video, pois) = try await Self.mavic3TClip(
            in: directory, subtitles: "DJI_0001.srt", bearings: [("Ahead", 252.7), ("Right", 272.7)])
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run(
            [
                "annotate", video, "--pois", pois, "--hfov", "60", "--output",
                directory.appendingPathComponent("out.mp4").path, "--sidecar", sidecar,
            ], environment: ["TZ": "Europe/Prague"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("note: poses from \(subtitles): 12 fixes from 12 cues (DJI subtitles"))
        #expect(result.stderr.contains("the camera's heading, pitch and roll from the gimbal (12 samples)"))
        #expect(result.stderr.contains("heights: the drone's own above sea level"))
        #expect(
            result.stderr.contains(
                "note: time: the first frame at 2024-05-23T15:36:01.877Z from the drone's clock in its DJI subtitles, "
                    + "which has no zone: read as local time in this system's time zone (CEST, UTC+02:00)"),
            "\(result.stderr)")
        #expect(result.stderr.contains("12 frames in, 12 out (12 annotated"))
        let records = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.count == 12)
        let pose = try #require(records.first?["pose"] as? [String: Any])
        #expect(pose["heading_deg"] as? Double == 252.7 && pose["pitch_deg"] as? Double == -10.7)
        let drawn = try #require(records.first?["pois"] as? [[String: Any]])
        func u(_ name: String) -> Double? { drawn.first { $0["name"] as? String == name }?["u"] as? Double }
        // Straight ahead is the picture's middle column; 20° right is 320 × tan 20° / tan 30° further.
        let ahead = try #require(u("Ahead"))
        let right = try #require(u("Right"))
        #expect(abs(ahead - 320) < 2, "\(drawn)")
        #expect(abs(right - (320 + 320 * tan(20 * Double.pi / 180) / tan(30 * Double.pi / 180))) < 4, "\(drawn)")
    }

    @Test("a Phantom 4 RTK clip: no dates in its cues; refused without a start, annotated with one, heights warned")
    func undated() async throws {
        let directory = try PackagePaths.temporaryDirectory("dji")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Cues 1 s apart: 20 frames at 5 fps cover the first four.
        let video = directory.appendingPathComponent("DJI_0002.MOV").path
        try await Self.clip(video, frames: 20, rate: "5")
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("dji-srt/JuanIrache/p4_rtk.SRT"),
            toPath: directory.appendingPathComponent("DJI_0002.SRT").path)
        let pois = directory.appendingPathComponent("pois.geojson").path
        try Self.pointsOfInterest(from: (-34.237922, -58.851745), bearings: [("Ahead", 110.4)])
            .write(toFile: pois, atomically: true, encoding: .utf8)
        func annotate(_ extra: [String]) async throws -> ProcessRunner.Result {
            try await Binary.run(
                [
                    "annotate", video, "--pois", pois, "--hfov", "60", "--output",
                    directory.appendingPathComponent("out-\(UUID().uuidString).mp4").path,
                ] + extra)
        }
        let refused = try await annotate([])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("DJI_0002.SRT carries no date and time and \(video) has no creation_time"))
        let firstFix = try await annotate(["--start", "first-fix"])
        #expect(firstFix.status == 64, "the first fix has no date either")
        let given = try await annotate(["--start", "2020-10-07T12:00:00Z"])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(
            given.stderr.contains(
                "warning: heights: \(directory.appendingPathComponent("DJI_0002.SRT").path) gives only the height above take-off"
            ))
        #expect(given.stderr.contains("20 frames in, 20 out (20 annotated"))
        // With a creation time in the container, that is the start, and the note says where it came from.
        let dated = directory.appendingPathComponent("DJI_0003.MOV").path
        try await Self.clip(dated, frames: 5, rate: "5", creationTime: "2020-10-07T12:00:00Z")
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("dji-srt/JuanIrache/p4_rtk.SRT"),
            toPath: directory.appendingPathComponent("DJI_0003.SRT").path)
        let fromContainer = try await Binary.run([
            "annotate", dated, "--pois", pois, "--hfov", "60", "--output",
            directory.appendingPathComponent("dated.mp4").path,
        ])
        #expect(fromContainer.status == 0, "\(fromContainer.stderr)")
        #expect(
            fromContainer.stderr.contains(
                "note: time: the first frame at 2020-10-07T12:00:00.000Z from the video's creation_time"))
    }

    @Test("location and sync read a DJI video's .SRT as its own track; a bare .SRT with dates is a track")
    func otherCommands() async throws {
        let directory = try PackagePaths.temporaryDirectory("dji")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = directory.appendingPathComponent("DJI_0001.MP4").path
        try await Self.clip(video, frames: 12, rate: "30000/1001")
        try FileManager.default.copyItem(
            atPath: PackagePaths.sample("dji-srt/ruz76/DJI_MAVIC_3T.SRT"),
            toPath: directory.appendingPathComponent("DJI_0001.SRT").path)
        let location = try await Binary.run(["location", video], environment: ["TZ": "UTC"])
        #expect(location.status == 0, "\(location.stderr)")
        #expect(
            location.stdout.contains(
                "fix      2024-05-23T17:36:01.877Z  3D  50.1063730, 14.4951680, 327.1 m above sea level"))
        #expect(
            location.stdout.contains("heading  2024-05-23T17:36:01.877Z  252.70°  pitch -10.70°  roll 0.00°  (gimbal)"))
        let sync = try await Binary.run(["sync", "--footage", video], environment: ["TZ": "UTC"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.stdout.contains("heading  the track's 12 headings (gimbal)"))
        #expect(sync.stdout.contains("overlap  0.4 s, 100.0 % of the footage; 12 frames with a pose, 0 without"))
        let track = try await Binary.run(["location", PackagePaths.sample("dji-srt/JuanIrache/matrice_300.srt")])
        #expect(track.status == 0, "\(track.stderr)")
        #expect(track.stderr.contains("gives only the height above take-off"))
    }
}
