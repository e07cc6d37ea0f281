import Foundation
import TestSupport
import Testing

/// POI files as OpenStreetMap exports have them (issue 39, item 9): areas are POIs at their label
/// point, and a feature that cannot be read is skipped with a warning naming it, unless --strict.
@Suite("arcapture annotate: areas and bad features in --pois")
struct AreaPointsOfInterestTests {
    /// The Fernsehturm's block as a Polygon, and a Point written with strings.
    static let file = """
        {"type": "FeatureCollection", "features": [
         {"type": "Feature", "id": "way/1", "geometry": {"type": "Polygon", "coordinates": [[[13.4090, 52.5205],
          [13.4099, 52.5205], [13.4099, 52.5211], [13.4090, 52.5211], [13.4090, 52.5205]]]},
          "properties": {"name": "Fernsehturm"}},
         {"type": "Feature", "geometry": {"type": "Point", "coordinates": ["13.4", "52.5"]}, "properties": {"name": "bad"}}
        ]}
        """

    @Test("from the Berlin Dom's steps: the tower's block labelled, the bad feature named; --strict: 65")
    func areasAndBadFeatures() async throws {
        let directory = try PackagePaths.temporaryDirectory("areas")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pois = directory.appendingPathComponent("areas.geojson").path
        try Self.file.write(toFile: pois, atomically: true, encoding: .utf8)
        // Where the Berlin Dom photo of ../shared/data was taken, looking as it looks.
        let arguments = [
            "annotate", PackagePaths.sample("photos/lund_01.jpg"), "--pois", pois, "--position",
            "52.518917,13.400294,27", "--orientation", "54.7,0,0", "--hfov", "60", "--output",
        ]
        let result = try await Binary.run(arguments + [directory.appendingPathComponent("out.jpg").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "warning: \(pois): skipped feature 1: coordinates must be [lon, lat] numbers, found [\"13.4\", \"52.5\"]"
            ))
        #expect(result.stderr.contains("note: \(pois): 1 of the 1 POIs are areas (Polygon, MultiPolygon)"))
        #expect(result.stderr.contains("1 markers, 1 labels"), "\(result.stderr)")
        let strict = try await Binary.run(
            arguments + [directory.appendingPathComponent("strict.jpg").path, "--strict"])
        #expect(strict.status == 65, "\(strict.stderr)")
        #expect(strict.stderr.contains("error: \(pois): feature 1: coordinates must be [lon, lat] numbers"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("strict.jpg").path))
    }
}
