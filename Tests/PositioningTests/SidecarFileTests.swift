import Foundation
import Testing

@testable import ArcaptureCore
@testable import Positioning

@Suite("Orientation sidecar files")
struct SidecarFileTests {
    private func parse(_ text: String) throws -> SidecarFile {
        try SidecarFile(data: Data(text.utf8), file: "pose.csv")
    }

    @Test("CSV with a header, any column order, optional columns")
    func csv() throws {
        let file = try parse(
            """
            # exported by a gimbal
            heading,time,pitch
            92.5,2024-05-01T10:00:00Z,-3
            93.0,2024-05-01T10:00:00.040Z,-2.5
            """)
        #expect(file.samples.map(\.heading) == [92.5, 93.0])
        #expect(file.samples.map(\.pitch) == [-3, -2.5])
        #expect(file.samples.allSatisfy { $0.roll == nil && $0.origin == .sidecar })
        #expect(file.samples[1].time == UTCTime.parse("2024-05-01T10:00:00.040Z"))
    }

    @Test("JSON lines, with seconds since 1970 as the time")
    func jsonLines() throws {
        let file = try parse(
            """
            {"time": 1714557600.5, "heading": 10, "pitch": 1, "roll": -2, "heading_accuracy": 3}
            {"time": "2024-05-01T10:00:01Z", "heading": 12}
            """)
        #expect(file.samples.count == 2)
        #expect(file.samples[0].time.timeIntervalSince1970 == 1_714_557_600.5)
        #expect(file.samples[0].headingAccuracy == 3 && file.samples[0].roll == -2)
    }

    @Test("a bad row is an error naming the line; a time going back is a warning")
    func errors() throws {
        #expect(
            throws: InputFileError.malformed(
                file: "pose.csv", location: "line 3", problem: "heading 'north' is not a number")
        ) {
            try parse("time,heading\n2024-05-01T10:00:00Z,1\n2024-05-01T10:00:01Z,north\n")
        }
        #expect(
            throws: InputFileError.malformed(
                file: "pose.csv", location: "line 2", problem: "2 values for 3 columns (time,heading,roll)")
        ) {
            try parse("time,heading,roll\n2024-05-01T10:00:00Z,1\n")
        }
        #expect(
            throws: InputFileError.malformed(
                file: "pose.csv", location: "line 1",
                problem: "the first line must be a CSV header with 'time' and 'heading' columns, or a JSON object")
        ) {
            try parse("1,2,3\n")
        }
        let file = try parse("time,heading\n2024-05-01T10:00:02Z,1\n2024-05-01T10:00:01Z,2\n2024-05-01T10:00:03Z,3\n")
        #expect(file.samples.map(\.heading) == [1, 3])
        #expect(
            file.warnings == [
                "pose.csv: line 3: time 2024-05-01T10:00:01.000Z is not after the previous row's; skipped"
            ])
    }

    @Test("a track replayed live takes a sidecar's orientations in place of its own; one from another time is refused")
    func replacesATracksOrientations() throws {
        let start = try #require(UTCTime.parse("2024-05-01T10:00:00Z"))
        let coordinate = try #require(GeodeticCoordinate(latitude: 60.17, longitude: 24.94, altitude: 20))
        let fixes = (0..<3).map {
            LocationFix(time: start.addingTimeInterval(Double($0)), coordinate: coordinate, mode: .threeD)
        }
        let track = RecordedTrack(
            file: "track.gpx", fixes: fixes,
            orientations: [OrientationSample(time: start, heading: 10, origin: .trueHeading)])
        let sidecar = try parse(
            """
            time,heading
            2024-05-01T10:00:00.500Z,45
            2024-05-01T10:00:01.500Z,46
            """)
        let replaced = try track.replacingOrientations(with: sidecar, file: "pose.csv")
        #expect(replaced.orientations.map(\.heading) == [45, 46])
        #expect(replaced.fixes.count == 3)
        let elsewhere = try parse("time,heading\n2001-01-01T00:00:00Z,90\n")
        #expect {
            try track.replacingOrientations(with: elsewhere, file: "pose.csv")
        } throws: { error in
            "\(error)".hasPrefix("pose.csv: its samples (2001-01-01T00:00:00Z to 2001-01-01T00:00:00Z) do not overlap")
                && "\(error)".contains("track.gpx's fixes (2024-05-01T10:00:00Z to 2024-05-01T10:00:02Z)")
        }
    }
}
