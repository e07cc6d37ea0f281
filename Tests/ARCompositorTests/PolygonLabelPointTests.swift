import ArcaptureCore
import Foundation
import TestSupport
import Testing

@testable import ARCompositor

/// Areas as POIs (issue 39, item 9): a Polygon's or MultiPolygon's label point, against Shapely's
/// own polylabel (an independent implementation of the same algorithm, run by Debian's Python on the
/// same local plane), and features that cannot be read skipped with their reason.
@Suite("Polygon label points")
struct PolygonLabelPointTests {
    /// An L-shaped block 80 m by 60 m in Helsinki, its arms 20 m wide: its centroid is outside it.
    static let lShape: PolygonLabelPoint.Ring = [
        (24.9500, 60.1700), (24.9500 + 80 / 55_450.0, 60.1700), (24.9500 + 80 / 55_450.0, 60.1700 + 20 / 111_195.0),
        (24.9500 + 20 / 55_450.0, 60.1700 + 20 / 111_195.0), (24.9500 + 20 / 55_450.0, 60.1700 + 60 / 111_195.0),
        (24.9500, 60.1700 + 60 / 111_195.0), (24.9500, 60.1700),
    ]

    /// A square block 60 m across with a square courtyard 30 m across in its middle.
    static let courtyard: [PolygonLabelPoint.Ring] = {
        let square = { (side: Double, offset: Double) -> PolygonLabelPoint.Ring in
            let (x, y) = (offset / 55_450.0, offset / 111_195.0)
            let (w, h) = (side / 55_450.0, side / 111_195.0)
            return [
                (24.95 + x, 60.17 + y), (24.95 + x + w, 60.17 + y), (24.95 + x + w, 60.17 + y + h),
                (24.95 + x, 60.17 + y + h), (24.95 + x, 60.17 + y),
            ]
        }
        return [square(60, 0), square(30, 15)]
    }()

    /// Shapely's polylabel of `rings`, on the plane `PolygonLabelPoint` uses, back in degrees,
    /// with its clearance in metres.
    private func shapely(_ rings: [PolygonLabelPoint.Ring]) async throws -> (
        latitude: Double, longitude: Double, clearance: Double
    ) {
        let json = String(
            decoding: try JSONSerialization.data(withJSONObject: rings.map { $0.map { [$0.longitude, $0.latitude] } }),
            as: UTF8.self)
        let script = """
            import json, math, sys
            from shapely.geometry import Polygon
            from shapely.ops import polylabel
            rings = json.loads(sys.argv[1])
            lons = [p[0] for p in rings[0]]; lats = [p[1] for p in rings[0]]
            lat0 = (min(lats) + max(lats)) / 2; lon0 = (min(lons) + max(lons)) / 2
            m = 6371008.8 * math.pi / 180; k = m * math.cos(lat0 * math.pi / 180)
            plane = [[((p[0] - lon0) * k, (p[1] - lat0) * m) for p in r] for r in rings]
            polygon = Polygon(plane[0], plane[1:])
            point = polylabel(polygon, tolerance=0.1)
            print(lat0 + point.y / m, lon0 + point.x / k, polygon.exterior.distance(point) if not plane[1:] else
                  min(polygon.exterior.distance(point), *[Polygon(h).exterior.distance(point) for h in plane[1:]]))
            """
        let result = try await ProcessRunner.run(
            executable: "/usr/bin/python3", arguments: ["-c", script, json], input: nil)
        try #require(result.status == 0, "apt-get install python3-shapely: \(result.stderr)")
        let numbers = result.stdout.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try #require(numbers.count == 3, "\(result.stdout)")
        return (numbers[0], numbers[1], numbers[2])
    }

    @Test("an L-shaped block and a block round a courtyard: Shapely's point, to the precision", arguments: [0, 1])
    func asShapely(_ which: Int) async throws {
        let rings = which == 0 ? [Self.lShape] : Self.courtyard
        let ours = try #require(PolygonLabelPoint.of(rings, precision: 0.1))
        let theirs = try await shapely(rings)
        // Both stop within 0.1 m of the best clearance; the points may differ along a ridge of
        // equal clearance, so the clearances are compared, and each point is checked inside.
        #expect(abs(ours.clearance - theirs.clearance) < 0.2, "ours \(ours), Shapely's \(theirs)")
        #expect(ours.clearance > (which == 0 ? 9.5 : 7.0), "\(ours)")
        let plane = { (latitude: Double, longitude: Double) in
            (x: (longitude - 24.95) * 55_450.0, y: (latitude - 60.17) * 111_195.0)
        }
        let planeRings = rings.map { $0.map { plane($0.latitude, $0.longitude) } }
        let point = plane(ours.latitude, ours.longitude)
        #expect(PolygonLabelPoint.signedDistance(point.x, point.y, planeRings) > (which == 0 ? 9 : 7))
    }

    @Test("a ring 5 m wide and 3,300 km long (a fuzzing input that ran for minutes): a bounded search")
    func thinRing() throws {
        let thin: PolygonLabelPoint.Ring = [
            (25.0, 60.0), (25.0001, 60.0), (25.0001, 60.0001), (25.0, 30.0), (25.0, 60.0),
        ]
        let (label, cells) = PolygonLabelPoint.search([thin], precision: 0.5)
        #expect(label != nil)
        // The first grid (at most 64 cells along the long side), then at most 20,000 looked at,
        // each split in four.
        #expect(cells < 64 * 2 + 20_000 * 4 + 2, "\(cells) cells")
        // The fuzzing input itself reads, its bad features skipped.
        let path = PackagePaths.root.appendingPathComponent("fuzz/regressions/geojson/timeout-thin-multipolygon").path
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(!data.isEmpty)
        _ = try? GeoJSONFile(contentsOf: path)
    }

    @Test("no area, no point")
    func degenerate() {
        #expect(PolygonLabelPoint.of([[(24.95, 60.17), (24.96, 60.17), (24.97, 60.17), (24.95, 60.17)]]) == nil)
        #expect(PolygonLabelPoint.of([[(24.95, 60.17), (24.96, 60.17)]]) == nil)
    }

    @Test("in a file: areas become POIs at their label point, a MultiPolygon in its largest part; bad features skipped")
    func inAFile() throws {
        let ring = { (rings: [PolygonLabelPoint.Ring]) in
            "["
                + rings.map { "[" + $0.map { "[\($0.longitude), \($0.latitude)]" }.joined(separator: ",") + "]" }
                .joined(separator: ",") + "]"
        }
        let small: PolygonLabelPoint.Ring = [(25.0, 60.0), (25.0001, 60.0), (25.0001, 60.0001), (25.0, 60.0)]
        let path = try GeoJSONFileTests.temporaryFile(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "way/1", "geometry": {"type": "Polygon", "coordinates": \(ring([Self.lShape]))},
               "properties": {"name": "Kortteli"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": ["24.9", "60.1"]}, "properties": {}},
              {"type": "Feature", "id": "relation/2", "geometry": {"type": "MultiPolygon",
               "coordinates": [\(ring([small])), \(ring(Self.courtyard))]}, "properties": {"name": "Piha"}},
              {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0]]]}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.92, 60.14]}, "properties": {"name": "P"}}
            ]}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try GeoJSONFile(contentsOf: path)
        #expect(file.pointsOfInterest.map(\.name) == ["Kortteli", "Piha", "P"])
        #expect(file.areas == 2)
        let lLabel = try #require(PolygonLabelPoint.of([Self.lShape]))
        #expect(file.pointsOfInterest[0].latitude == lLabel.latitude && file.pointsOfInterest[0].altitude == nil)
        // The courtyard block's part, not the small one far away.
        #expect(abs(file.pointsOfInterest[1].longitude - 24.95) < 0.002)
        #expect(
            file.invalid == [
                "feature 1: coordinates must be [lon, lat] numbers, found [\"24.9\", \"60.1\"]",
                "feature 3: a Polygon's ring needs at least four positions, found [[0, 0], [1, 0]]",
            ])
        let notes = file.pointOfInterestNotes(file: "x.geojson")
        #expect(
            notes.contains(
                "x.geojson: skipped feature 1: coordinates must be [lon, lat] numbers, found [\"24.9\", \"60.1\"]"))
        #expect(file.placementNote(file: "x.geojson")?.hasPrefix("x.geojson: 2 of the 3 POIs are areas") == true)
        // Read strictly, the first bad feature is the error.
        #expect(throws: InputFileError.self) { try GeoJSONFile(contentsOf: path, strict: true) }
    }
}
