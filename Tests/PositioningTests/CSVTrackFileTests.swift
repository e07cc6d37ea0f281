import ArcaptureCore
import Foundation
import TestSupport
import Testing

@testable import Positioning

/// CSV tracks (issue 40, item 4): columns found by their names, in the layouts phone loggers and
/// spreadsheets write.
@Suite("CSV tracks")
struct CSVTrackFileTests {
    static func read(_ text: String) throws -> RecordedTrack {
        try RecordedTrack.read(Data(text.utf8), file: "track.csv")
    }

    @Test("a GPS Logger-style file: ISO times with Z, units in brackets, quoted cells, a heading column")
    func logger() throws {
        let track = try Self.read(
            """
            Time,Latitude,Longitude,Altitude (m),Bearing,Accuracy
            2024-05-01T10:00:00Z,60.1699,24.9384,12.5,90,3
            2024-05-01T10:00:01.5Z,60.1700,24.9386,12.7,-91,3
            "2024-05-01T13:00:02+03:00","60.1701","24.9388",,92,3
            """)
        #expect(track.fixes.map(\.coordinate.latitude) == [60.1699, 60.1700, 60.1701])
        #expect(
            track.fixes.map { UTCTime.format($0.time) } == [
                "2024-05-01T10:00:00.000Z", "2024-05-01T10:00:01.500Z", "2024-05-01T10:00:02.000Z",
            ])
        #expect(track.fixes.map(\.altitudeMeanSeaLevel) == [12.5, 12.7, nil])
        #expect(track.orientations.map(\.heading) == [90, 269, 92])
        #expect(track.orientations.allSatisfy { $0.origin == .trackFile })
        #expect(track.warnings.isEmpty)
        #expect(track.summary.contains("altitude \"altitude\" above sea level, heading \"bearing\" from true north"))
    }

    @Test("Unix seconds and milliseconds, semicolons; times without a zone read in TZ and warned of")
    func epochs() throws {
        let track = try Self.read("timestamp;lat;lon\n1714557600;60.1;24.9\n1714557601500;60.2;24.9\n")
        #expect(track.fixes.map { $0.time.timeIntervalSince1970 } == [1_714_557_600, 1_714_557_601.5])
        #expect(track.warnings.isEmpty)
        let local = try Self.read("datetime\tlat\tlng\talt\n2024-05-01 12:00:00\t60.1\t24.9\t5\n")
        let wallClock = try #require(UTCTime.parse("2024-05-01T12:00:00Z"))
        let expected = try #require(LocalTime.instant(ofWallClock: wallClock))
        #expect(local.fixes.first?.time == expected.date)
        #expect(local.fixes.first?.altitudeMeanSeaLevel == 5)
        #expect(
            local.warnings.first?.contains(
                "1 times have no zone (line 2: \"2024-05-01 12:00:00\"): read as local time in this system's time zone")
                == true, "\(local.warnings)")
    }

    @Test("lines it cannot read are skipped and named; no time column, or no fix, refused")
    func refused() throws {
        let track = try Self.read(
            "time,lat,lon\n2024-05-01T10:00:00Z,60.1,24.9\nsoon,60.2,24.9\n2024-05-01T10:00:02Z,north,24.9\n"
                + "2024-05-01T10:00:00Z,60.3,24.9\n2024-05-01T10:00:03Z,60.4,24.9\n")
        #expect(track.fixes.count == 2)
        #expect(
            track.warnings == [
                "track.csv: line 3: no time it can read (\"soon\"); skipped",
                "track.csv: line 4: no latitude and longitude it can read; skipped",
                "track.csv: line 5: its time, 2024-05-01T10:00:00.000Z, is not after the line before's; skipped",
            ])
        #expect(
            throws: InputFileError.malformed(
                file: "track.csv", location: "line 1",
                problem:
                    "no time column (one named time, timestamp, datetime or utc): a track's fixes need their times; "
                    + "found name, lat, lon")
        ) {
            try Self.read("name,lat,lon\nA,1,2\n")
        }
        #expect {
            try Self.read("time,lat,lon\nx,y,z\n")
        } throws: { error in
            "\(error)".hasPrefix("track.csv: no line gives a fix (1 lines; first: track.csv: line 2: no time")
        }
        #expect(!CSVTrackFile.isCSVTrack(head: Data("$GPGGA,1,2\n".utf8)))
    }
}
