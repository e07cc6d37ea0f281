import Foundation
import TestSupport
import Testing

/// Heights on one datum (issue 39, item 5): a GPX track's and a photo's GPS altitudes are above
/// sea level, poses are on the ellipsoid; the run puts them there with the EGM96 geoid (PROJ's
/// grid) and says so, or with the separation the user gives. PROJ's own `cct`, applying the same
/// grid, is the reference for the separation.
@Suite("arcapture annotate: heights above sea level on the ellipsoid")
struct HeightDatumTests {
    /// The first sidecar line's pose altitude.
    static func firstAltitude(_ sidecar: URL) throws -> Double? {
        let line = try #require(String(contentsOf: sidecar, encoding: .utf8).split(separator: "\n").first)
        let frame = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return (frame["pose"] as? [String: Any])?["alt_m"] as? Double
    }

    @Test("a GPX track's elevations: EGM96's separation added and said; --geoid-separation instead when given")
    func track() async throws {
        let directory = try PackagePaths.temporaryDirectory("heights")
        defer { try? FileManager.default.removeItem(at: directory) }
        let common = [
            "annotate", PackagePaths.sample("footage/harbour.mjpeg"), "--track",
            PackagePaths.sample("footage/harbour.gpx"),
            "--start", "2022-08-14T11:12:32Z", "--fps", "8", "--heading-from-course", "--hfov", "70", "--pois",
            PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"),
        ]
        let sidecar = directory.appendingPathComponent("a.jsonl")
        let result = try await Binary.run(
            common + ["--output", directory.appendingPathComponent("a.mjpeg").path, "--sidecar", sidecar.path])
        #expect(result.status == 0, "\(result.stderr)")
        // The first fix: 60.146706, 24.906772 at <ele>3.0</ele>.
        let separation = try await PROJGeoid.separation(latitude: 60.146706, longitude: 24.906772)
        #expect(abs(separation - 17.9) < 0.1)
        let altitude = try #require(try Self.firstAltitude(sidecar))
        #expect(abs(altitude - (3.0 + separation)) < 0.001, "\(altitude) m, PROJ's sea level \(separation) m")
        #expect(
            result.stderr.contains(
                "note: heights: all 13 fixes above sea level + EGM96's geoid separation (the first: 3.0 m above "
                    + String(format: "sea level, %.1f m on the ellipsoid)", 3.0 + separation)), "\(result.stderr)")

        let givenSidecar = directory.appendingPathComponent("b.jsonl")
        let given = try await Binary.run(
            common + [
                "--geoid-separation", "10", "--output", directory.appendingPathComponent("b.mjpeg").path, "--sidecar",
                givenSidecar.path,
            ])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(abs((try Self.firstAltitude(givenSidecar) ?? 0) - 13.0) < 0.001)
        #expect(
            given.stderr.contains(
                "note: heights: all 13 fixes above sea level + the geoid separation given (--geoid-separation)"),
            "\(given.stderr)")
    }

    @Test("a folder of geotagged photos: each GPS altitude (above sea level) plus EGM96's separation at the photo")
    func photos() async throws {
        let directory = try PackagePaths.temporaryDirectory("heights-photos")
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = directory.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = folder.appendingPathComponent("a.jpg")
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: PackagePaths.sample("frames/lund-640x480.jpg")), to: photo)
        // Lund's cathedral square, 100 m above sea level, looking east (true north).
        let tagged = try await ProcessRunner.run(
            tool: "exiftool",
            [
                "-q", "-overwrite_original", "-GPSLatitude=55.7047", "-GPSLatitudeRef=N", "-GPSLongitude=13.1910",
                "-GPSLongitudeRef=E", "-GPSAltitude=100", "-GPSAltitudeRef=0", "-GPSImgDirection=90",
                "-GPSImgDirectionRef=T", "-DateTimeOriginal=2024:05:17 12:00:00", "-OffsetTimeOriginal=+02:00",
                photo.path,
            ], install: "apt-get install libimage-exiftool-perl")
        #expect(tagged.status == 0, "\(tagged.stderr)")
        let sidecar = directory.appendingPathComponent("p.jsonl")
        let result = try await Binary.run([
            "annotate", folder.path, "--pois", PackagePaths.sample("pois/geonames_places_near_datasets.geojson"),
            "--hfov", "70", "--output", directory.appendingPathComponent("out/%f").path, "--sidecar", sidecar.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let separation = try await PROJGeoid.separation(latitude: 55.7047, longitude: 13.1910)
        let altitude = try #require(try Self.firstAltitude(sidecar))
        #expect(abs(altitude - (100 + separation)) < 0.001, "\(altitude) m, PROJ's sea level \(separation) m")
        #expect(
            result.stderr.contains(
                "note: heights: each photo's GPS altitude is above sea level (EXIF's datum), put on the ellipsoid with "
                    + "EGM96's geoid at the photo"), "\(result.stderr)")
    }
}
