import Foundation
import Positioning
import Testing

@testable import ARCompositor

@Suite("GeoJSON points of interest")
struct GeoJSONFileTests {
    static func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arcapture-\(UUID().uuidString).geojson"
        ).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "an OpenStreetMap ele tag is a height above sea level, put on the ellipsoid with EGM96; a third coordinate wins"
    )
    func seaLevelElevations() throws {
        let path = try Self.temporaryFile(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.8364, 46.3783]}, "properties": {"name": "Triglav", "ele": "2864"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.9, 46.4]}, "properties": {"name": "a", "ele": 1000.5}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.9, 46.4]}, "properties": {"name": "b", "ele": "1200 m"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.9, 46.4]}, "properties": {"name": "c", "ele": "4000 ft"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [13.9, 46.4, 700]}, "properties": {"name": "d", "ele": "650"}}
            ]}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try GeoJSONFile(contentsOf: path)
        let grid = try GeoidGrid.shared.get()
        let triglav = grid.separation(latitude: 46.3783, longitude: 13.8364)
        let other = grid.separation(latitude: 46.4, longitude: 13.9)
        let altitudes = file.pointsOfInterest.map(\.altitude)
        #expect(abs((altitudes[0] ?? 0) - (2864 + triglav)) < 1e-9)
        #expect(abs((altitudes[1] ?? 0) - (1000.5 + other)) < 1e-9)
        #expect(abs((altitudes[2] ?? 0) - (1200 + other)) < 1e-9)
        #expect(altitudes[3] == nil, "feet are not guessed")
        #expect(altitudes[4] == 700, "a position's third number is on the ellipsoid already")
        #expect(file.elevationsAboveSeaLevel == 3)
        #expect(
            file.placementNote(file: "p.geojson")
                == "p.geojson: 3 of the 5 POIs' heights are above sea level (OpenStreetMap's ele), put on the "
                + String(format: "ellipsoid with EGM96's geoid (%+.1f m at the first)", triglav))
    }

    @Test("ids, names, altitude, category, colour and icon follow formats.md")
    func fields() throws {
        let path = try Self.temporaryFile(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "id": "node/123", "geometry": {"type": "Point", "coordinates": [24.95, 60.17, 12.5]},
               "properties": {"name": "Tuomiokirkko", "category": "building=cathedral", "color": "#AA00ff", "icon": "church"}},
              {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [24.94, 60.16]}, "properties": {"title": "Kauppatori"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.93, 60.15]}, "properties": {"id": "p3"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.92, 60.14]}, "properties": null},
              {"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}, "properties": {}},
              {"type": "Feature", "id": "route", "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1], [24.91, 60.11]]}}
            ]}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try GeoJSONFile(contentsOf: path)
        // The Polygon (feature 4) is a POI at its label point.
        #expect(file.pointsOfInterest.map(\.id) == ["node/123", "7", "p3", "3", "4"])
        #expect(file.pointsOfInterest.map(\.name) == ["Tuomiokirkko", "Kauppatori", "p3", "3", "4"])
        #expect(file.areas == 1)
        let first = file.pointsOfInterest[0]
        #expect((first.latitude, first.longitude, first.altitude) == (60.17, 24.95, 12.5))
        #expect((first.category, first.color, first.icon) == ("building=cathedral", "#aa00ff", "church"))
        #expect(file.pointsOfInterest[1].altitude == nil)
        #expect(file.skipped.isEmpty)
        #expect(file.routes.map(\.id) == ["route"])
        #expect(file.routes.first?.vertices.count == 2)
    }

    @Test("a single Feature and a bare Point geometry are accepted")
    func singleAndBare() throws {
        for text in [
            #"{"type": "Feature", "geometry": {"type": "Point", "coordinates": [2.29, 48.86]}, "properties": {"name": "Tour Eiffel"}}"#,
            #"{"type": "Point", "coordinates": [2.29, 48.86]}"#,
        ] {
            let path = try Self.temporaryFile(text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let points = try GeoJSONFile(contentsOf: path).pointsOfInterest
            #expect(points.count == 1)
            #expect(points.first?.latitude == 48.86)
        }
    }

    @Test("the two real files in shared/data load as they are")
    func realFiles() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let samples = root.appendingPathComponent("samples/pois")
        let helsinki = try GeoJSONFile(
            contentsOf: samples.appendingPathComponent("helsinki_center_osm_pois.geojson").path)
        #expect(helsinki.pointsOfInterest.count == 634)
        #expect(helsinki.pointsOfInterest.contains { $0.name == "Helsingin tuomiokirkko" })
        let geonames = try GeoJSONFile(
            contentsOf: samples.appendingPathComponent("geonames_places_near_datasets.geojson").path)
        #expect(geonames.pointsOfInterest.count == 71)
        #expect(geonames.pointsOfInterest.first?.name == "Cerknica")
    }

    @Test(
        "errors name the file, the feature and the field",
        arguments: [
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": ["24.9", "60.1"]}}]}"#,
                #"feature 0: coordinates must be [lon, lat] numbers, found ["24.9", "60.1"]"#
            ),
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [60.1, 124.9]}}]}"#,
                "feature 0: coordinates [60.1, 124.9] are out of range (GeoJSON is [lon, lat]: is the order swapped?)"
            ),
            (
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"color": "red"}}]}"#,
                ##"feature 0: color must be "#rrggbb", found "red""##
            ),
            (
                "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [\n    {\"type\": \"Feature\" \"geometry\": null}\n  ]\n}",
                "line 4: not valid JSON"
            ),
            (#"{"features": []}"#, #"not GeoJSON: the top level has no "type""#),
        ])
    func errors(text: String, message: String) throws {
        let path = try Self.temporaryFile(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try GeoJSONFile(contentsOf: path)
            Issue.record("expected an error containing \(message)")
        } catch {
            #expect(error.description.hasPrefix("\(path): "))
            #expect(error.description.contains(message), "\(error.description)")
        }
    }
}
