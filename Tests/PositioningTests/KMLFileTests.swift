import ArcaptureCore
import Foundation
import TestSupport
import Testing

@testable import Positioning

/// KML and KMZ tracks (issue 40, item 4): the `gx:Track` example of Google's KML reference, timed
/// placemarks, the altitude modes, and a KMZ zipped by Python's own zipfile.
@Suite("KML and KMZ tracks")
struct KMLFileTests {
    /// The first three points of the `gx:Track` example in Google's KML reference (developers.google.com/kml/documentation/kmlreference#gxtrack).
    static func track(mode: String?) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
        <Document><Placemark>
          <gx:Track>
            \(mode.map { "<altitudeMode>\($0)</altitudeMode>" } ?? "")
            <when>2010-05-28T02:02:09Z</when>
            <when>2010-05-28T02:02:35Z</when>
            <when>2010-05-28T02:02:44Z</when>
            <gx:coord>-122.207881 37.371915 156.000000</gx:coord>
            <gx:coord>-122.205712 37.373288 152.000000</gx:coord>
            <gx:coord>-122.204678 37.373939 147.000000</gx:coord>
          </gx:Track>
        </Placemark></Document>
        </kml>
        """
    }

    static func read(_ text: String, _ file: String = "track.kml") throws -> RecordedTrack {
        try RecordedTrack.read(Data(text.utf8), file: file)
    }

    @Test("gx:Track: each when with its coord; heights only under altitudeMode absolute")
    func track() throws {
        let absolute = try Self.read(Self.track(mode: "absolute"))
        #expect(absolute.fixes.map(\.coordinate.latitude) == [37.371915, 37.373288, 37.373939])
        #expect(absolute.fixes.map(\.coordinate.longitude) == [-122.207881, -122.205712, -122.204678])
        #expect(absolute.fixes.map(\.altitudeMeanSeaLevel) == [156, 152, 147])
        #expect(absolute.fixes.first.map { UTCTime.format($0.time) } == "2010-05-28T02:02:09.000Z")
        // KML's default is clampToGround: the third value is no height above sea level.
        let clamped = try Self.read(Self.track(mode: nil))
        #expect(clamped.fixes.allSatisfy { $0.altitudeMeanSeaLevel == nil })
        #expect(clamped.summary.contains("3 heights left out (altitudeMode not absolute: on or above the ground)"))
    }

    @Test("timed placemarks, out of order, are sorted; a LineString alone is refused saying why")
    func placemarks() throws {
        let text = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
            <Placemark><TimeStamp><when>2024-05-01T10:00:05+03:00</when></TimeStamp>
              <Point><altitudeMode>absolute</altitudeMode><coordinates>24.94,60.17,20</coordinates></Point></Placemark>
            <Placemark><TimeStamp><when>2024-05-01T07:00:00Z</when></TimeStamp>
              <Point><coordinates>24.93,60.16</coordinates></Point></Placemark>
            <Placemark><TimeStamp><when>2024-05</when></TimeStamp><Point><coordinates>1,2</coordinates></Point></Placemark>
            </Document></kml>
            """
        let track = try Self.read(text)
        #expect(track.fixes.map(\.coordinate.longitude) == [24.93, 24.94])
        #expect(track.fixes.map(\.altitudeMeanSeaLevel) == [nil, 20])
        #expect(track.warnings.first?.contains("<when>2024-05</when> is not a time of day; left out") == true)
        #expect(
            throws: InputFileError.malformed(
                file: "line.kml", location: nil,
                problem: "only LineStrings, which have no times: a track needs a gx:Track or timed placemarks")
        ) {
            try Self.read(
                "<kml><Placemark><LineString><coordinates>1,2 3,4</coordinates></LineString></Placemark></kml>",
                "line.kml")
        }
    }

    @Test("XML that is not well-formed is refused naming the line, as for GPX")
    func malformed() throws {
        #expect {
            try Self.read("<kml>\n<Placemark>\n</Document>\n</kml>\n")
        } throws: { error in
            "\(error)".hasPrefix("track.kml: line 3")
        }
    }

    @Test("a KMZ zipped by Python's zipfile reads as its doc.kml; a zip without one is refused")
    func kmz() async throws {
        let directory = try PackagePaths.temporaryDirectory("kmz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let kml = directory.appendingPathComponent("track.kml").path
        try Self.track(mode: "absolute").write(toFile: kml, atomically: true, encoding: .utf8)
        let kmz = directory.appendingPathComponent("track.kmz").path
        let other = directory.appendingPathComponent("other.kmz").path
        let zipped = try await ProcessRunner.run(
            executable: "/usr/bin/env",
            arguments: [
                "python3", "-c",
                "import sys, zipfile\n"
                    + "with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n"
                    + "    z.writestr('files/icon.png', b'not a png')\n    z.write(sys.argv[2], 'doc.kml')\n"
                    + "with zipfile.ZipFile(sys.argv[3], 'w', zipfile.ZIP_STORED) as z:\n"
                    + "    z.writestr('readme.txt', 'no kml here')\n",
                kmz, kml, other,
            ])
        #expect(zipped.status == 0, "\(zipped.stderr)")
        #expect(try RecordedTrack.load(kmz).fixes == RecordedTrack.load(kml).fixes)
        #expect(
            throws: InputFileError.malformed(
                file: other, location: nil, problem: "a zip archive with no .kml file in it")
        ) {
            try RecordedTrack.load(other)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: kmz))
        #expect {
            try RecordedTrack.read(bytes.prefix(bytes.count - 30), file: "cut.kmz")
        } throws: { error in
            "\(error)".hasPrefix("cut.kmz: a zip archive without its central directory")
        }
    }
}
