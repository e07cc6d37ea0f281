import Foundation
import TestSupport
import Testing

/// Footage whose GPS arcapture does not read itself, annotated from what ExifTool reads (issue 40,
/// item 6), run as a user runs the built binary: a drone clip with positions in its subtitles (made
/// by ffmpeg from positions the test chose), the Insta360 sample whose GPS has no fix, and a
/// machine without ExifTool.
@Suite("arcapture annotate: the long tail of video telemetry through ExifTool")
struct ExifToolFootageTests {
    static let options = [
        "--pois", PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"), "--hfov", "90",
        "--heading-from-course",
    ]

    @Test("a clip with its positions in subtitles: each frame posed where its cue says, once its start is given")
    func subtitlePositions() async throws {
        let directory = try PackagePaths.temporaryDirectory("exiftool")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = directory.appendingPathComponent("drone.mp4").path
        let positions = SubtitleGPSVideo.positions(6)
        try await SubtitleGPSVideo.make(video, positions: positions)
        let output = directory.appendingPathComponent("out.mp4").path
        // Its cues say where, not when: the start must be given.
        let undated = try await Binary.run(["annotate", video] + Self.options + ["--output", output])
        #expect(undated.status == 64)
        #expect(undated.stderr.contains("'s reading of \(video) carries no date and time"), "\(undated.stderr)")
        #expect(undated.stderr.contains("give --start TIME"))
        #expect(!FileManager.default.fileExists(atPath: output))

        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run(
            ["annotate", video] + Self.options + [
                "--start", "2024-05-01T10:00:00Z", "--output", output, "--sidecar", sidecar,
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "'s reading of \(video): 6 fixes from its metadata (exiftool -ee); timed by their place in the video "
                    + "only"), "\(result.stderr)")
        #expect(result.stderr.contains("6 frames in, 6 out (6 annotated"))
        let poses = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").map { line in
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(record["pose"] as? [String: Any])
        }
        #expect(poses.count == 6)
        // Frame i is at i s, where cue i puts the drone.
        for (pose, position) in zip(poses, positions) {
            #expect(abs((pose["lat"] as? Double ?? 0) - position.latitude) < 1e-7)
            #expect(abs((pose["lon"] as? Double ?? 0) - position.longitude) < 1e-7)
        }
    }

    @Test(
        "sync reads the clip's GPS through ExifTool too; a clip with none asks for --track, saying what was looked for")
    func sync() async throws {
        let directory = try PackagePaths.temporaryDirectory("exiftool")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = directory.appendingPathComponent("drone.mp4").path
        try await SubtitleGPSVideo.make(video, positions: SubtitleGPSVideo.positions(6))
        let report = try await Binary.run(["sync", "--footage", video, "--start", "2024-05-01T10:00:00Z"])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(
            report.stdout.contains("6 fixes, 2024-05-01T10:00:00.000Z to 2024-05-01T10:00:05.000Z"), "\(report.stdout)")
        #expect(report.stdout.contains("6 frames with a pose, 0 without"), "\(report.stdout)")
        let plain = directory.appendingPathComponent("plain.mp4").path
        let made = try await ProcessRunner.run(
            tool: "ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:rate=1:duration=2", "-c:v", "libx264", plain],
            install: "apt-get install ffmpeg")
        #expect(made.status == 0, "\(made.stderr)")
        let refused = try await Binary.run(["sync", "--footage", plain])
        #expect(refused.status == 64)
        #expect(
            refused.stderr.contains("error: --track FILE is required: \(plain) has no GPMF telemetry track"),
            "\(refused.stderr)")
        #expect(refused.stderr.contains("finds no GPS position in it: it carries no GPS arcapture reads"))
    }

    @Test("the Insta360 sample: its trailer's GPS records have no position, so a track is asked for (64)")
    func insta360() async throws {
        let sample = PackagePaths.sample("action-cam/insta360-one-r.insv")
        let directory = try PackagePaths.temporaryDirectory("exiftool")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await Binary.run(
            ["annotate", sample] + Self.options + ["--output", directory.appendingPathComponent("out.mp4").path])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains("error: give --track FILE: \(sample) carries no GPS of its own (no GPMF telemetry"),
            "\(result.stderr)")
        #expect(
            result.stderr.contains("and its Insta360 trailer's 2 GPS records have no fix (the receiver had none"),
            "\(result.stderr)")
    }

    @Test("without ExifTool installed, the message says what would read the clip and how to install it")
    func notInstalled() async throws {
        let directory = try PackagePaths.temporaryDirectory("exiftool")
        defer { try? FileManager.default.removeItem(at: directory) }
        let video = directory.appendingPathComponent("drone.mp4").path
        try await SubtitleGPSVideo.make(video, positions: SubtitleGPSVideo.positions(3))
        let result = try await Binary.run(
            ["annotate", video] + Self.options + ["--output", directory.appendingPathComponent("out.mp4").path],
            environment: ["PATH": directory.path])
        #expect(result.status == 64)
        #expect(
            result.stderr.contains(
                "and ExifTool, which reads the GPS of many dashcams and other cameras, is not installed (apt-get "
                    + "install libimage-exiftool-perl)"), "\(result.stderr)")
    }
}
