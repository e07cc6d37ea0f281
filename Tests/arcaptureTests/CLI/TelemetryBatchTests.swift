import Foundation
import TestSupport
import Testing

/// `annotate --batch` over footage whose poses come from the telemetry formats of issue 40: a DJI
/// clip with its `.SRT` beside it, a clip along a Garmin FIT activity, one along a CSV whose columns
/// `--track-columns` names, an Osmo Action clip with its own DJI metadata track, and an XTRA Edge
/// Pro clip with its own of the same kind (`xtmd`). Each row must
/// write what `annotate` run by hand on the same inputs writes, as a fleet's operator relies on.
@Suite("arcapture annotate --batch with DJI, FIT, CSV, djmd and xtmd telemetry")
struct TelemetryBatchTests {
    @Test("each row's sidecar is the one annotate writes by hand: the same times, poses and places drawn")
    func rowsMatchHandRuns() async throws {
        let directory = try PackagePaths.temporaryDirectory("telemetry-batch")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The DJI clip: 12 frames at 29.97 fps, a real Mavic 3T .SRT beside it, a place ahead.
        let (dji, prague) = try await DJIFootageTests.mavic3TClip(in: directory)
        // Still footage along the fenix 5 run (FITTrackTests) and along a German logger's CSV
        // (TrackColumnsTests).
        let still = try await StillFootage.mjpeg(frames: 5, in: directory)
        let csv = try TrackColumnsTests.germanTrack(in: directory)
        let north = directory.appendingPathComponent("north.geojson").path
        try
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"North"},"geometry":{"type":"Point","coordinates":[13.193,55.7090]}},{"type":"Feature","properties":{"name":"Run north"},"geometry":{"type":"Point","coordinates":[-122.6337039,38.2342840]}}]}"#
            .write(toFile: north, atomically: true, encoding: .utf8)
        // An Osmo Action 4 clip with its own djmd track, going south near Carlsbad.
        let carlsbadClip = PackagePaths.sample("video/max-heromode.mp4")
        let osmo = try await DJIMetadataFootageTests.osmoAction(from: carlsbadClip, in: directory).path.path
        let xtra = try await DJIMetadataFootageTests.xtraEdgePro(from: carlsbadClip, in: directory).path.path
        let carlsbad = [
            "--pois", PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"), "--hfov", "118",
            "--heading-from-course", "--max-distance", "40000",
        ]

        let stillOptions = ["--fps", "1", "--orientation", "0", "--hfov", "70", "--pois", north]
        let rows: [(footage: String, track: String?, name: String, options: [String])] = [
            (dji, nil, "dji", ["--hfov", "60", "--pois", prague]),
            (
                still, PackagePaths.sample("fit/garmin-fenix-5-run.fit"), "fit",
                ["--start", "2017-06-11T14:34:09Z"] + stillOptions
            ),
            (
                still, csv, "csv",
                ["--track-columns", TrackColumnsTests.columns, "--start", "2024-05-01T10:00:02Z"] + stillOptions
            ),
            (osmo, nil, "djmd", carlsbad),
            (xtra, nil, "xtmd", carlsbad),
        ]
        let manifest = directory.appendingPathComponent("fleet.jsonl").path
        var lines: [String] = []
        for row in rows {
            var object: [String: Any] = [
                "footage": row.footage, "output": "batch/\(row.name).y4m",
                "options": row.options + [
                    "--sidecar", directory.appendingPathComponent("batch/\(row.name).jsonl").path,
                ],
            ]
            if let track = row.track { object["track"] = track }
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        let batch = try await Binary.run(["annotate", "--batch", manifest, "--workers", "1"])
        #expect(batch.status == 0, "\(batch.stderr)")

        for (index, row) in rows.enumerated() {
            let sidecar = directory.appendingPathComponent("\(row.name).jsonl").path
            let hand = try await Binary.run(
                ["annotate", row.footage] + (row.track.map { ["--track", $0] } ?? []) + row.options + [
                    "--workers", "1", "--output", directory.appendingPathComponent("\(row.name).y4m").path,
                    "--sidecar", sidecar,
                ])
            #expect(hand.status == 0, "\(row.name): \(hand.stderr)")
            let written = try Data(contentsOf: directory.appendingPathComponent("batch/\(row.name).jsonl"))
            let expected = try Data(contentsOf: URL(fileURLWithPath: sidecar))
            #expect(!expected.isEmpty && written == expected, "row \(index) (\(row.name))")
            // Every frame posed and something drawn on the first: a row that lost its telemetry
            // would pass frames through unposed, its sidecar without places.
            let first = try #require(try StillFootage.firstRecord(ofSidecar: sidecar), "\(row.name)")
            #expect(first["pose"] is [String: Any], "\(row.name): \(first)")
            #expect(((first["pois"] as? [Any])?.count ?? 0) > 0, "\(row.name): \(first)")
            #expect(
                batch.stderr.contains("row \(index): annotate: ") && hand.stderr.contains(" 0 without a pose"),
                "\(row.name): \(hand.stderr)")
        }
    }
}
