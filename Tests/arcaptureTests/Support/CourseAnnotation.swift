import Foundation
import TestSupport
import Testing

/// `arcapture annotate VIDEO` over a clip filmed near Carlsbad (the GoPro samples, or a copy with
/// its telemetry rewritten): headings from the course, the GeoNames places near Carlsbad, a Y4M
/// output and a sidecar, as the telemetry tests annotate their clips with no `--track`.
struct CourseAnnotation {
    /// What the binary printed and how it ended.
    var result: Binary.Result
    /// The sidecar's records, one a frame written.
    var records: [[String: Any]]

    /// Runs it in `directory`.
    init(_ video: String, in directory: URL) async throws {
        let sidecar = directory.appendingPathComponent("frames.jsonl").path
        result = try await Binary.run([
            "annotate", video, "--pois", PackagePaths.sample("pois/geonames_places_near_carlsbad.geojson"),
            "--hfov", "118", "--heading-from-course", "--max-distance", "40000", "--output",
            directory.appendingPathComponent("out.y4m").path, "--sidecar", sidecar,
        ])
        records =
            (try? String(contentsOfFile: sidecar, encoding: .utf8))?.split(separator: "\n").compactMap { line in
                try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            } ?? []
    }

    /// The first frame's pose in the sidecar.
    func firstPose() throws -> [String: Any] {
        try #require(records.first?["pose"] as? [String: Any])
    }
}
