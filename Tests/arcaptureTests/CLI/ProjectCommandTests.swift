import Foundation
import Testing

/// `arcapture project` run as a user runs it, on the bundled Senate Square sample.
@Suite("arcapture project")
struct ProjectCommandTests {
    static var sample: String {
        Binary.packageRoot.appendingPathComponent("samples/pois/helsinki-senate-square.geojson").path
    }
    static let pose = ["--position", "60.16880,24.95200,31.5", "--orientation", "0,3,0"]

    @Test("JSON has exactly the spec's fields per point, in file order, with nulls behind the camera")
    func json() async throws {
        let result = try await Binary.run(
            ["project", "--pois", Self.sample] + Self.pose + ["--hfov", "70", "--size", "1280x720", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 16)
        for object in array {
            #expect(
                Set(object.keys) == [
                    "id", "name", "u", "v", "depth", "distance_m", "bearing_deg", "elevation_deg", "in_view",
                ])
        }
        let cathedral = try #require(array.first { $0["name"] as? String == "Helsingin tuomiokirkko" })
        #expect(cathedral["id"] as? String == "way/419479428")
        #expect(cathedral["in_view"] as? Bool == true)
        let bearing = try #require(cathedral["bearing_deg"] as? Double)
        #expect(bearing > 0 && bearing < 10, "the cathedral is just east of north from the square's south side")
        let market = try #require(array.first { $0["name"] as? String == "Vanha Kauppahalli" })
        #expect(market["u"] is NSNull && market["v"] is NSNull, "behind the camera: no pixel")
        #expect(market["in_view"] as? Bool == false)
        #expect(result.stderr.contains("note: 16 of 16 points give no altitude; they stand at 30.00 m"))
    }

    @Test("the table lists the points, and --in-view and --within filter them")
    func table() async throws {
        let all = try await Binary.run(
            ["project", "--pois", Self.sample] + Self.pose + ["--hfov", "70", "--size", "1280x720"])
        #expect(all.status == 0)
        #expect(all.stdout.hasPrefix("camera 1280x720, fx 914.0 fy 914.0 cx 640.0 cy 360.0; 11 of 16 points in view\n"))
        #expect(all.stdout.contains("Helsingin tuomiokirkko"))
        let filtered = try await Binary.run(
            ["project", "--pois", Self.sample] + Self.pose + [
                "--hfov", "70", "--size", "1280x720", "--in-view", "--within", "200",
            ])
        let lines = filtered.stdout.split(separator: "\n").dropFirst(2)
        // In view and within 200 m, from the table above: the statue, two memorials, the
        // cathedral, the Bank of Finland museum and Alexander I (the library is 201.5 m away).
        #expect(lines.count == 6)
        #expect(lines.allSatisfy { $0.hasSuffix("yes") })
        #expect(lines.contains { $0.contains("Helsingin tuomiokirkko") })
        #expect(!lines.contains { $0.contains("Kansalliskirjasto") })
    }

    @Test("a calibration file is read and scaled to --size")
    func calibration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arcapture-project-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let yaml = directory.appendingPathComponent("camera.yaml").path
        try """
        image_width: 640
        image_height: 360
        camera_matrix:
          data: [457, 0, 320, 0, 457, 180, 0, 0, 1]
        distortion_model: plumb_bob
        distortion_coefficients:
          data: [-0.05, 0.01, 0, 0, 0]
        """.write(toFile: yaml, atomically: true, encoding: .utf8)
        let result = try await Binary.run(
            ["project", "--pois", Self.sample] + Self.pose + ["--camera", yaml, "--size", "1280x720"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("camera 1280x720, fx 914.0 fy 914.0 cx 640.0 cy 360.0, with lens distortion;"))
        let wrongAspect = try await Binary.run(
            ["project", "--pois", Self.sample] + Self.pose + ["--camera", yaml, "--size", "1280x960"])
        #expect(wrongAspect.status == 65)
        #expect(wrongAspect.stderr.contains("\(yaml): the calibration is for 640x360 and cannot be scaled to 1280x960"))
    }

    @Test("input errors: a missing file is 66, a malformed one is 65 with file, feature and field")
    func inputErrors() async throws {
        let missing = try await Binary.run(
            ["project", "--pois", "/nonexistent/pois.geojson"] + Self.pose + ["--hfov", "70", "--size", "640x480"])
        #expect(missing.status == 66)
        #expect(missing.stderr == "error: /nonexistent/pois.geojson: no such file\n")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arcapture-bad-\(UUID().uuidString).geojson"
        ).path
        try
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": ["24.9", "60.1"]}}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let malformed = try await Binary.run(
            ["project", "--pois", file] + Self.pose + ["--hfov", "70", "--size", "640x480"])
        #expect(malformed.status == 65)
        #expect(
            malformed.stderr
                == "error: \(file): feature 0: coordinates must be [lon, lat] numbers, found [\"24.9\", \"60.1\"]\n")
    }

    @Test(
        "usage errors say what is expected",
        arguments: [
            (["--position", "60,24,10", "--hfov", "70", "--size", "640x480"], "--pois FILE.geojson is required"),
            (
                ["--pois", "x", "--position", "60,24", "--hfov", "70", "--size", "640x480"],
                "--position must be LAT,LON,ALT"
            ),
            (["--pois", "x", "--position", "60,24,10", "--hfov", "70"], "--hfov needs --size WxH"),
            (["--pois", "x", "--position", "60,24,10"], "a camera is required"),
            (
                [
                    "--pois", "x", "--position", "60,24,10", "--orientation", "0,95,0", "--hfov", "70", "--size",
                    "640x480",
                ],
                "--orientation must be HEADING[,PITCH[,ROLL]]"
            ),
        ])
    func usage(arguments: [String], message: String) async throws {
        let result = try await Binary.run(["project"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
