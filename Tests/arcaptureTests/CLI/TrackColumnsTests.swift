import Foundation
import TestSupport
import Testing

/// `--track-columns` (issue 40, item 4): a CSV track whose header arcapture does not know (a German
/// logger's `Zeit;Breite;Länge`) or which has none, read by every command that takes a track, as a
/// user runs them.
@Suite("arcapture with --track-columns")
struct TrackColumnsTests {
    /// Ten fixes a second apart, going north from Lund's cathedral, with a German header.
    static func germanTrack(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("fahrt.csv").path
        let lines = (0..<10).map { second in
            String(
                format: "2024-05-01T10:00:%02dZ;%.6f;13.193000;%.1f", second, 55.7042 + Double(second) * 0.00001, 60.0)
        }
        try (["Zeit;Breite;Länge;Höhe (m)"] + lines).joined(separator: "\n")
            .write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let columns = "time=Zeit,lat=Breite,lon=Länge,alt=Höhe"

    @Test("annotate, sync and location read the CSV the map describes; a wrong map is refused")
    func commands() async throws {
        let directory = try PackagePaths.temporaryDirectory("track-columns")
        defer { try? FileManager.default.removeItem(at: directory) }
        let track = try Self.germanTrack(in: directory)
        let clip = try await StillFootage.mjpeg(frames: 5, in: directory)
        let pois = directory.appendingPathComponent("pois.geojson").path
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"North"},"geometry":{"type":"Point","coordinates":[13.193,55.7090]}}]}"#
            .write(toFile: pois, atomically: true, encoding: .utf8)
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let annotate = [
            "annotate", clip, "--track", track, "--start", "2024-05-01T10:00:02Z", "--fps", "1", "--orientation", "0",
            "--hfov", "70", "--pois", pois, "--output", directory.appendingPathComponent("out.mjpeg").path,
        ]
        // Without the map the header means nothing to it: refused, and the formats it reads said.
        let unmapped = try await Binary.run(annotate)
        #expect(unmapped.status == 65)
        #expect(
            unmapped.stderr.contains("any other CSV with its columns given by name or number"), "\(unmapped.stderr)")
        let result = try await Binary.run(annotate + ["--track-columns", Self.columns, "--sidecar", sidecar])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("5 frames in, 5 out (5 annotated"), "\(result.stderr)")
        let first = try #require(
            try StillFootage.firstRecord(ofSidecar: sidecar))
        let pose = try #require(first["pose"] as? [String: Any])
        // The first frame at 10:00:02: the third line's fix.
        #expect(abs((pose["lat"] as? Double ?? 0) - 55.70422) < 1e-7, "\(pose)")
        #expect(abs((pose["lon"] as? Double ?? 0) - 13.193) < 1e-7, "\(pose)")
        #expect((first["pois"] as? [[String: Any]])?.first?["name"] as? String == "North", "\(first)")

        let sync = try await Binary.run([
            "sync", "--track", track, "--track-columns", Self.columns, "--frames", "5", "--fps", "1", "--start",
            "2024-05-01T10:00:02Z",
        ])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(
            sync.stdout.contains("10 fixes, 2024-05-01T10:00:00.000Z to 2024-05-01T10:00:09.000Z"), "\(sync.stdout)")

        let location = try await Binary.run(["location", track, "--track-columns", Self.columns, "--count", "1"])
        #expect(location.status == 0, "\(location.stderr)")
        #expect(location.stdout.contains("55.7042000, 13.1930000, 60.0 m above sea level"), "\(location.stdout)")

        // A header name the file does not have: the file, its line and what it has are named.
        let wrong = try await Binary.run(["location", track, "--track-columns", "time=Uhrzeit,lat=Breite,lon=Länge"])
        #expect(wrong.status == 65)
        #expect(
            wrong.stderr.contains(
                "fahrt.csv: line 1: no column named \"Uhrzeit\" (the time column given); found \"Zeit\", \"Breite\""),
            "\(wrong.stderr)")
        // What is not a map, or a map with nothing to apply to, is a usage error.
        let usage: [([String], String)] = [
            (["location", track, "--track-columns", "zeit"], "--track-columns: 'zeit' is not ROLE=COLUMN"),
            (["location", "55.7,13.2", "--track-columns", "time=1"], "the SOURCE is not a file"),
            (
                ["annotate", clip, "--track-columns", "time=1", "--hfov", "70", "--output", "x.mjpeg"],
                "--track-columns says where a CSV --track's columns are"
            ),
            (
                ["capture", "--track-columns", "time=1", "--count", "1", "--output", "x.jpg"],
                "--track-columns says where a CSV --location file's columns are"
            ),
        ]
        for (arguments, message) in usage {
            let refused = try await Binary.run(arguments)
            #expect(refused.status == 64, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
    }

    @Test("a file without a header: its columns by number, the date and time in two of them")
    func headerless() async throws {
        let directory = try PackagePaths.temporaryDirectory("track-columns-bare")
        defer { try? FileManager.default.removeItem(at: directory) }
        let track = directory.appendingPathComponent("log.csv").path
        try "2024-05-01,10:00:00Z,13.193,55.7042\n2024-05-01,10:00:01Z,13.193,55.70421\n"
            .write(toFile: track, atomically: true, encoding: .utf8)
        let result = try await Binary.run(["location", track, "--track-columns", "date=1,time=2,lon=3,lat=4", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let fixes = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "fix" }
        #expect(fixes.count == 2, "\(result.stdout)")
        #expect(fixes.first?["time"] as? String == "2024-05-01T10:00:00.000Z", "\(result.stdout)")
        #expect(fixes.first?["lat"] as? Double == 55.7042, "\(result.stdout)")
    }
}
