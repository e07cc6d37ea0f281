import Foundation
import TestSupport
import Testing

/// What a new user met at the edges of footage and JSON (issue 20, item 15), run as a user would:
/// keys documented "null, never missing" are null, an empty Y4M is an error, a cut Y4M counts its
/// cut frame in.
@Suite("arcapture: footage edge cases and JSON nulls")
struct FootageEdgeCaseTests {
    private let clip = PackagePaths.sample("footage/harbour.mjpeg")
    private let common = [
        "--track", PackagePaths.sample("footage/harbour.gpx"), "--start", "2022-08-14T11:12:32Z", "--hfov", "60",
        "--pois", PackagePaths.sample("pois/helsinki-senate-square.geojson"),
    ]

    /// Six harbour frames as Y4M (ffmpeg, an independent writer).
    private func y4m(in directory: URL) async throws -> URL {
        let file = directory.appendingPathComponent("six.y4m")
        _ = try await ProcessRunner.run(
            tool: "ffmpeg",
            [
                "-v", "error", "-i", clip, "-frames:v", "6", "-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", "-y",
                file.path,
            ],
            install: "apt-get install ffmpeg")
        return file
    }

    @Test("a Y4M header without frames is an error (65) and writes nothing; a cut last frame is counted in")
    func y4mEdges() async throws {
        let directory = try PackagePaths.temporaryDirectory("y4m")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = try await Data(contentsOf: y4m(in: directory))
        let header = try #require(whole.firstIndex(of: 0x0A))
        let empty = directory.appendingPathComponent("empty.y4m")
        try whole.prefix(through: header).write(to: empty)
        let output = directory.appendingPathComponent("out.y4m").path
        let nothing = try await Binary.run(["annotate", empty.path] + common + ["--output", output])
        #expect(nothing.status == 65, "\(nothing.stderr)")
        #expect(nothing.stderr.contains("empty.y4m: no frames to annotate"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let cut = directory.appendingPathComponent("cut.y4m")
        try whole.prefix(whole.count - 1000).write(to: cut)
        let six = try await Binary.run(["annotate", cut.path] + common + ["--output", output])
        #expect(six.status == 0, "\(six.stderr)")
        #expect(six.stderr.contains("cut.y4m: frame 5 is cut short (it ends 1000 bytes early)"), "\(six.stderr)")
        #expect(six.stderr.contains("6 frames in, 5 out (5 annotated"), "\(six.stderr)")
        #expect(six.stderr.contains("1 damaged skipped"))
    }

    @Test("the sidecar's and sync's optional keys are null, never missing, as docs/json.md says")
    func nullsNotMissing() async throws {
        let directory = try PackagePaths.temporaryDirectory("nulls")
        defer { try? FileManager.default.removeItem(at: directory) }
        // From 11:12:37: the last frames fall after the track and have no pose.
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        var late = common
        late[late.firstIndex(of: "2022-08-14T11:12:32Z") ?? 0] = "2022-08-14T11:12:37Z"
        let run = try await Binary.run(
            ["annotate", clip] + late + [
                "--fps", "8", "--output", directory.appendingPathComponent("o.mjpeg").path, "--sidecar", sidecar,
                "--pass-through",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: sidecar, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let keys: Set = [
            "schema", "frame", "file", "time", "pose", "pois", "instruction", "marker_opacity", "skipped",
        ]
        #expect(lines.allSatisfy { Set($0.keys) == keys }, "\(lines.first?.keys.sorted() ?? [])")
        let last = try #require(lines.last)
        #expect(last["pose"] is NSNull && last["frame"] as? Int == 47)
        #expect(lines.first?["pose"] is [String: Any])
        let sync = try await Binary.run(
            ["sync", "--footage", clip, "--fps", "8"] + Array(late.prefix(4)) + ["--heading-from-course", "--json"])
        #expect(sync.status == 0, "\(sync.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)) as? [String: Any])
        let samples = try #require(report["samples"] as? [[String: Any]])
        #expect(samples.count == 3)
        let sampleKeys = Set(samples[0].keys)
        #expect(sampleKeys.contains("heading_accuracy_deg") && sampleKeys.contains("no_pose"))
        #expect(samples.allSatisfy { Set($0.keys) == sampleKeys })
        #expect(samples[2]["latitude"] is NSNull && samples[2]["no_pose"] is String, "\(samples[2])")
    }
}
