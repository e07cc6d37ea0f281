import ArcaptureCore
import Foundation
import TestSupport
import Testing

@testable import Positioning

/// CSV tracks (issue 40, item 4): columns found by their names, in the layouts phone loggers and
/// spreadsheets write.
@Suite("CSV tracks")
struct CSVTrackFileTests {
    static func read(_ text: String, columns: CSVColumnMap? = nil) throws -> RecordedTrack {
        try RecordedTrack.read(Data(text.utf8), file: "track.csv", csvColumns: columns)
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

    @Test("a column map: roles and their other spellings, names and numbers; what is not one refused")
    func columnMap() throws {
        let map = try CSVColumnMap(parsing: "time=Zeit, Latitude=2,lng=Länge,ELE=Höhe (m),bearing=7,date=Datum")
        #expect(map.time == .named("Zeit"))
        #expect(map.latitude == .numbered(2))
        #expect(map.longitude == .named("Länge"))
        #expect(map.altitude == .named("Höhe (m)"))
        #expect(map.heading == .numbered(7))
        #expect(map.date == .named("Datum"))
        #expect(map.description == "time=Zeit,date=Datum,lat=2,lon=Länge,alt=Höhe (m),heading=7")
        let refused: [(String, String)] = [
            (
                "time",
                "'time' is not ROLE=COLUMN (a role, time, date, lat, lon, alt, heading, and a header name or a column number from 1)"
            ),
            (
                "time=a,,lat=b",
                "'' is not ROLE=COLUMN (a role, time, date, lat, lon, alt, heading, and a header name or a column number from 1)"
            ),
            ("speed=3", "'speed' is not a role a track's column holds: time, date, lat, lon, alt, heading"),
            ("lat=0", "'lat=0': columns are numbered from 1"),
            ("lat=1,latitude=2", "the lat column is given twice"),
        ]
        for (text, problem) in refused {
            #expect(throws: CSVColumnMap.ParseError(description: problem), "\(text)") {
                try CSVColumnMap(parsing: text)
            }
        }
    }

    @Test("columns given by name: a header in German; those not given still found by their usual names")
    func namedColumns() throws {
        let text = """
            Zeit;Breite;Länge;Höhe (m);Kurs;alt
            2024-05-01T10:00:00Z;60.1699;24.9384;12.5;90;999
            2024-05-01T10:00:01Z;60.1700;24.9386;12.7;91;999
            """
        // Without the map, its header says nothing arcapture knows: not read as a CSV track.
        #expect(!CSVTrackFile.isCSVTrack(head: Data(text.utf8)))
        let track = try Self.read(
            text, columns: try CSVColumnMap(parsing: "time=zeit,lat=Breite,lon=LÄNGE,alt=Höhe,heading=Kurs"))
        #expect(track.fixes.map(\.coordinate.latitude) == [60.1699, 60.1700])
        #expect(track.fixes.map(\.coordinate.longitude) == [24.9384, 24.9386])
        #expect(track.fixes.map(\.altitudeMeanSeaLevel) == [12.5, 12.7])
        #expect(track.orientations.map(\.heading) == [90, 91])
        #expect(
            track.summary
                == "2 fixes from 2 lines (CSV: time \"zeit\", latitude \"breite\", longitude \"länge\", altitude "
                + "\"höhe\" above sea level, heading \"kurs\" from true north)")
        // Only the time given: latitude and longitude found by their names, and "alt" as the altitude.
        let partial = try Self.read(
            "Uhrzeit,lat,lon,alt\n1714557600,60.1,24.9,5\n", columns: try CSVColumnMap(parsing: "time=Uhrzeit"))
        #expect(partial.fixes.first?.time.timeIntervalSince1970 == 1_714_557_600)
        #expect(partial.fixes.first?.altitudeMeanSeaLevel == 5)
        #expect(
            throws: InputFileError.malformed(
                file: "track.csv", location: "line 1",
                problem: "no column named \"Uhrzeit\" (the time column given); found \"Zeit\", \"Breite\", \"Länge\", "
                    + "\"Höhe (m)\", \"Kurs\", \"alt\"")
        ) {
            try Self.read(text, columns: try CSVColumnMap(parsing: "time=Uhrzeit,lat=Breite,lon=Länge"))
        }
    }

    @Test("columns given by number: a file without a header, its date and time in two columns")
    func numberedColumns() throws {
        let columns = try CSVColumnMap(parsing: "date=1,time=2,lat=4,lon=3")
        let track = try Self.read(
            "2024-05-01,10:00:00Z,24.9384,60.1699\n2024-05-01,10:00:01.5Z,24.9386,60.1700\n", columns: columns)
        #expect(track.fixes.count == 2)
        #expect(
            track.fixes.map { UTCTime.format($0.time) } == ["2024-05-01T10:00:00.000Z", "2024-05-01T10:00:01.500Z"])
        #expect(track.fixes.map(\.coordinate.latitude) == [60.1699, 60.1700])
        #expect(
            track.summary
                == "2 fixes from 2 lines (CSV without a header: time column 1 and column 2, latitude column 4, "
                + "longitude column 3)")
        // With a header line (words where the numbers are), its names are kept for the summary.
        let headed = try Self.read("d,t,x,y\n2024-05-01,10:00:00Z,24.9384,60.1699\n", columns: columns)
        #expect(headed.fixes.count == 1)
        #expect(headed.summary.hasPrefix("1 fixes from 1 lines (CSV: time \"d\" and \"t\", latitude \"y\""))
        #expect(
            throws: InputFileError.malformed(
                file: "track.csv", location: "line 1",
                problem: "no column 7 (the time column given): the line has 4")
        ) {
            try Self.read(
                "2024-05-01,10:00:00Z,24.9384,60.1699\n", columns: try CSVColumnMap(parsing: "time=7,lat=4,lon=3"))
        }
        #expect(
            throws: InputFileError.malformed(
                file: "track.csv", location: "line 1",
                problem: "no latitude and longitude columns (give them by name or number: lat=NAME,lon=NAME)")
        ) {
            try Self.read("a,b,c\n1,2,3\n", columns: try CSVColumnMap(parsing: "time=a"))
        }
    }
}
