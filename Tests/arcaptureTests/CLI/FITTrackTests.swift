import Foundation
import TestSupport
import Testing

/// A Garmin FIT activity as `--track` (issue 40, item 3): the fenix 5 run in `samples/fit/`,
/// with footage that has no time of its own, as a user with a chest-mounted camera and a watch runs
/// it.
@Suite("arcapture with a FIT track")
struct FITTrackTests {
    static let run = PackagePaths.sample("fit/garmin-fenix-5-run.fit")

    @Test("annotate, sync and location read it: poses at the watch's fixes, refused files named")
    func annotate() async throws {
        let directory = try PackagePaths.temporaryDirectory("fit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try await StillFootage.mjpeg(frames: 10, in: directory)
        // A place 500 m north of the run's first fix (38.2297873, -122.6337039).
        let pois = directory.appendingPathComponent("pois.geojson").path
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"North"},"geometry":{"type":"Point","coordinates":[-122.6337039,38.2342840]}}]}"#
            .write(toFile: pois, atomically: true, encoding: .utf8)
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        let result = try await Binary.run([
            "annotate", clip, "--track", Self.run, "--start", "2017-06-11T14:34:09Z", "--fps", "1", "--orientation",
            "0", "--hfov", "70", "--pois", pois, "--output", directory.appendingPathComponent("out.mjpeg").path,
            "--sidecar", sidecar,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("10 frames in, 10 out (10 annotated"), "\(result.stderr)")
        let first = try #require(
            try StillFootage.firstRecord(ofSidecar: sidecar))
        let pose = try #require(first["pose"] as? [String: Any])
        // fitdecode: the first record at 456099128, -1463077077 semicircles, the last at 14:35:06
        // (Tests/PositioningTests/Fixtures/fit-expected/garmin-fenix-5-run.csv).
        #expect(abs((pose["lat"] as? Double ?? 0) - 456_099_128 * 180 / 2_147_483_648.0) < 1e-9)
        #expect(abs((pose["lon"] as? Double ?? 0) - -1_463_077_077 * 180 / 2_147_483_648.0) < 1e-9)
        let drawn = try #require(first["pois"] as? [[String: Any]])
        #expect(drawn.first?["name"] as? String == "North", "\(first)")

        let sync = try await Binary.run([
            "sync", "--track", Self.run, "--footage", clip, "--fps", "1", "--start", "2017-06-11T14:34:09Z",
        ])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(
            sync.stdout.contains("21 fixes, 2017-06-11T14:34:09.000Z to 2017-06-11T14:35:06.000Z"), "\(sync.stdout)")

        let indoor = try await Binary.run(["location", PackagePaths.sample("fit/sample-activity-indoor-trainer.fit")])
        #expect(indoor.status == 65)
        #expect(indoor.stderr.contains("none of its 2263 records has a position"))
    }
}
