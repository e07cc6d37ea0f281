import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Positioning

/// GPX against the real tracks in samples/gpx (gpxpy's test files, Apache-2.0); expected figures
/// are from their SOURCES.md and from reading the files.
@Suite("GPX files")
struct GPXFileTests {
    @Test("a car drive near Višnjan: 104 timed points with elevation")
    func visnjan() throws {
        let track = try RecordedTrack.load(PackagePaths.sample("gpx/around-visnjan-with-car.gpx"))
        #expect(track.fixes.count == 104)
        #expect(track.timeSpan?.lowerBound == UTCTime.parse("2020-12-18T06:15:50Z"))
        #expect(track.timeSpan?.upperBound == UTCTime.parse("2020-12-18T06:24:24Z"))
        let elevations = track.fixes.compactMap(\.altitudeMeanSeaLevel)
        #expect(elevations.count == 104 && elevations.min() == 195.77 && elevations.max() == 241.91)
        #expect(track.fixes.allSatisfy { $0.coordinate.altitude == nil })
        #expect(track.warningCount == 0)
    }

    @Test("Lake Cerknica: eight tracks (one empty), seven named waypoints (a Garmin's 10-letter names)")
    func cerknica() throws {
        let file = try GPXFile(contentsOf: PackagePaths.sample("gpx/cerknicko-jezero.gpx"))
        #expect(file.tracks.count == 8)
        #expect(file.tracks.filter { $0.points.isEmpty }.count == 1)
        #expect(file.waypoints.count == 7)
        #expect(file.waypoints.contains { $0.name == "VANSHNG LK" })
        let track = try file.recordedTrack()
        #expect(track.fixes.count == 296)
    }

    @Test("Korita–Žbevnica: a track without times is left out with a warning naming its line")
    func untimedTrack() throws {
        let path = PackagePaths.sample("gpx/korita-zbevnica.gpx")
        let track = try RecordedTrack.load(path)
        #expect(track.fixes.count == 176 + 337)
        #expect(
            track.warnings == ["\(path): line 33: 358 of 358 points of track '03-OCT-10 #2' have no time; left out"])
    }

    private func load(_ gpx: String) throws -> RecordedTrack {
        try GPXFile(data: Data(gpx.utf8), file: "t.gpx").recordedTrack()
    }

    @Test("malformed XML is an error with the line")
    func brokenXML() {
        #expect {
            try load(
                "<gpx>\n<trk><trkseg>\n<trkpt lat=\"45\" lon=\"14\"><time>2020-01-01T00:00:00Z</time></trkpt>\n</trk></gpx>"
            )
        } throws: { error in
            "\(error)".hasPrefix("t.gpx: line 4")
        }
    }

    @Test(
        "XML mistakes are worded, not numbered (Foundation says only 'NSXMLParserErrorDomain error N')",
        arguments: [
            (
                "<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"></trkseg></trk></gpx>",
                "t.gpx: line 2: XML error: an end tag that does not match the element it closes"
            ),
            ("<gpx><trk>&bogus;</trk></gpx>", "t.gpx: line 1: XML error: an entity that is not declared"),
            ("<gpx><a b=1></a></gpx>", "t.gpx: line 1: XML error: an attribute's value without quotes"),
            ("<gpx></gpx>\njunk\n", "t.gpx: line 2: XML error: there is more after the document's last element"),
        ])
    func wordedXMLErrors(gpx: String, message: String) {
        #expect {
            try load(gpx)
        } throws: { error in
            "\(error)".hasPrefix(message) && !"\(error)".contains("Domain")
        }
    }

    @Test("a GPX file cut short says so, at its last line, wherever the cut fell")
    func cutShort() throws {
        let whole = try String(contentsOfFile: PackagePaths.sample("gpx/korita-zbevnica.gpx"), encoding: .utf8)
        let lines = whole.split(separator: "\n", omittingEmptySubsequences: false)
        // Inside a tag, inside a value, and between elements (then the cut's trailing newline).
        for cut in [19_990, 20_000, 20_010] {
            let part = String(decoding: Array(whole.utf8).prefix(cut), as: UTF8.self)
            let lastLine = part.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lastLine < lines.count)
            #expect(
                throws: InputFileError.malformed(
                    file: "t.gpx", location: nil,
                    problem: "the XML ends in the middle of an element at line \(lastLine) (was the file cut short?)")
            ) {
                try load(part)
            }
        }
        let betweenPoints = lines.prefix(while: { !$0.contains("</trkpt>") }).count + 1
        let part = lines.prefix(betweenPoints).joined(separator: "\n") + "\n"
        #expect(
            throws: InputFileError.malformed(
                file: "t.gpx", location: nil,
                problem: "the XML ends in the middle of an element at line \(betweenPoints) (was the file cut short?)")
        ) {
            try load(part)
        }
    }

    @Test("a wrong root, a missing attribute and an impossible latitude are errors naming the line")
    func wrongContent() {
        #expect(
            throws: InputFileError.malformed(
                file: "t.gpx", location: "line 1", problem: "not a GPX file (the root element is <kml>)")
        ) {
            try load("<kml></kml>")
        }
        #expect(
            throws: InputFileError.malformed(
                file: "t.gpx", location: "line 2", problem: "<trkpt> needs lat and lon attributes")
        ) {
            try load("<gpx><trk><trkseg>\n<trkpt lon=\"14\"/></trkseg></trk></gpx>")
        }
        #expect(
            throws: InputFileError.malformed(
                file: "t.gpx", location: "line 2", problem: "<trkpt> has lat=\"95\" lon=\"14\": not a position")
        ) {
            try load("<gpx><trk><trkseg>\n<trkpt lat=\"95\" lon=\"14\"/></trkseg></trk></gpx>")
        }
    }

    @Test("an unnamed track's untimed points are said in a sentence")
    func unnamedTrackWarning() throws {
        let track = try load(
            "<gpx><trk><trkseg>\n<trkpt lat=\"45\" lon=\"14\"><time>2020-01-01T00:00:00Z</time></trkpt>\n"
                + "<trkpt lat=\"45.1\" lon=\"14\"/></trkseg></trk></gpx>")
        #expect(track.warnings == ["t.gpx: line 3: 1 of 2 points of a track without a name have no time; left out"])
    }

    @Test("a time going back and an unreadable time are warnings; the other points stay")
    func badTimes() throws {
        let track = try load(
            """
            <gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="45.0" lon="14.0"><ele>500</ele><time>2020-01-01T00:00:10Z</time></trkpt>
            <trkpt lat="45.1" lon="14.0"><time>2020-01-01T00:00:05Z</time></trkpt>
            <trkpt lat="45.2" lon="14.0"><time>noon</time></trkpt>
            <trkpt lat="45.3" lon="14.0"><time>2020-01-01T00:00:20.5Z</time></trkpt>
            </trkseg></trk></gpx>
            """)
        #expect(track.fixes.map(\.coordinate.latitude) == [45.0, 45.3])
        #expect(
            track.warnings.contains(
                "t.gpx: line 3: time 2020-01-01T00:00:05.000Z is not after the previous point's (2020-01-01T00:00:10.000Z); point left out"
            ))
        #expect(track.warnings.contains("t.gpx: line 4: <time>noon</time> is not an ISO 8601 time; point has no time"))
        #expect(track.fixes.first?.mode == .threeD && track.fixes.last?.mode == .twoD)
    }
}
