import Foundation
import TestSupport
import Testing

/// A GPX file's waypoints as POIs (issue 39, item 9): a real Garmin export, its waypoints read
/// back by Python's own XML parser as the reference.
@Suite("arcapture project: GPX waypoints as POIs")
struct WaypointPointsOfInterestTests {
    @Test("Cerknica lake's seven waypoints, by name and place; its eight tracks said to be no POIs")
    func waypoints() async throws {
        let gpx = PackagePaths.sample("gpx/cerknicko-jezero.gpx")
        let script = """
            import sys, xml.etree.ElementTree as ET
            local = lambda e: e.tag.rsplit("}", 1)[-1]  # GPX 1.0 or 1.1, whatever the namespace
            for w in ET.parse(sys.argv[1]).getroot():
                if local(w) == "wpt":
                    name = next((c.text for c in w if local(c) == "name"), None)
                    ele = next((c.text for c in w if local(c) == "ele"), None)
                    print(name, w.get("lat"), w.get("lon"), ele)
            """
        let reference = try await ProcessRunner.run(executable: "/usr/bin/python3", arguments: ["-c", script, gpx])
        #expect(reference.status == 0, "\(reference.stderr)")
        let expected = reference.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            return (
                name: fields.dropLast(3).joined(separator: " "), lat: Double(fields[fields.count - 3]) ?? 0,
                lon: Double(fields[fields.count - 2]) ?? 0, ele: Double(fields[fields.count - 1])
            )
        }
        #expect(expected.count == 7)
        let result = try await Binary.run([
            "project", "--pois", gpx, "--position", "45.76,14.33,560", "--hfov", "90", "--size", "640x480", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let points = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(points.compactMap { $0["name"] as? String }.sorted() == expected.map(\.name).sorted())
        #expect(result.stderr.contains("\(gpx): skipped 8 tracks and routes: only a GPX file's waypoints are POIs"))
        #expect(
            result.stderr.contains(
                "note: \(gpx): 6 of the 7 POIs' heights are above sea level (GPX <ele>), put on the ellipsoid with "
                    + "EGM96's geoid (+46.6 m at the first)"),
            "\(result.stderr)")
        // Each where the file puts it: its bearing from the device as the reference's position gives
        // (on a plane, which is within 0.3° of the ellipsoid's over these 5 km).
        for point in points {
            let name = try #require(point["name"] as? String)
            let place = try #require(expected.first { $0.name == name })
            let (dLat, dLon) = ((place.lat - 45.76) * .pi / 180, (place.lon - 14.33) * .pi / 180)
            let bearing = atan2(dLon * cos(45.76 * .pi / 180), dLat) * 180 / .pi
            let theirs = (bearing + 360).truncatingRemainder(dividingBy: 360)
            let ours = try #require(point["bearing_deg"] as? Double)
            #expect(abs(ours - theirs) < 0.3 || abs(abs(ours - theirs) - 360) < 0.3, "\(name): \(ours) vs \(theirs)")
            // At its height: <ele> above sea level plus the geoid's separation there as PROJ gives it
            // (cct with the same EGM96 grid). The geoid moves a waypoint 2.5 km away by a degree.
            guard let ele = place.ele else { continue }
            let separation = try await PROJGeoid.separation(latitude: place.lat, longitude: place.lon)
            let distance = try #require(point["distance_m"] as? Double)
            let elevation = try #require(point["elevation_deg"] as? Double)
            let expected = asin((ele + separation - 560) / distance) * 180 / .pi  // distance_m is the straight line
            let curvature = distance / 6_371_000 / 2 * 180 / .pi  // the horizon's drop over the distance
            #expect(abs(elevation - expected) < curvature + 0.05, "\(name): \(elevation)° vs \(expected)°")
        }
    }
}
