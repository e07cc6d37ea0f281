import ArcaptureCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A KML or KMZ file's timed points as a track (Google Earth, Google's location history, flight
/// trackers, many GPS apps): `gx:Track` (each `when` with its `gx:coord`, "longitude latitude
/// altitude") and placemarks with a `TimeStamp` and a `Point` ("longitude,latitude,altitude"). A
/// `LineString` has no times, so it cannot place a frame: a file with nothing else is refused saying
/// so. Altitudes are used only under `altitudeMode` `absolute` (above sea level); KML's default,
/// `clampToGround`, and `relativeToGround` are not heights above sea level, and the summary says
/// they were left out. A KMZ is a zip archive: its first `.kml` entry (`doc.kml`) is read.
enum KMLFile {
    /// Whether `head` is a KMZ: a zip archive (`PK\u{3}\u{4}`).
    static func isKMZ(_ head: Data) -> Bool { head.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    /// Whether `head` (XML) has a `kml` root element in its first bytes.
    static func isKML(_ head: String) -> Bool { head.contains("<kml") }

    /// Reads a KMZ's KML.
    static func readKMZ(_ data: Data, file: String) throws(InputFileError) -> RecordedTrack {
        try read(ZipArchive.firstEntry(endingWith: ".kml", in: data, file: file), file: file)
    }

    /// Reads KML `data`, the contents of `file`.
    ///
    /// - Throws: `InputFileError` when the XML is malformed, the root is not `<kml>`, or no point
    ///   has a time.
    static func read(_ data: Data, file: String) throws(InputFileError) -> RecordedTrack {
        try XMLEncodingCheck.check(data, file: file, format: "KML")
        let reader = KMLReader(file: file)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        let parsed = parser.parse()
        guard reader.sawRoot else {
            throw .malformed(file: file, location: nil, problem: "not a KML file (the root element is not <kml>)")
        }
        if let (error, line, column) = reader.xmlError {
            throw XMLProblem.error(error, line: line, column: column, file: file, data: data)
        }
        guard parsed else {
            throw XMLProblem.error(
                parser.parserError, line: parser.lineNumber, column: parser.columnNumber, file: file, data: data)
        }
        var warnings = reader.warnings
        var fixes: [LocationFix] = []
        var localZone: (name: String, offset: Int, example: String)?
        var localTimes = 0
        var droppedHeights = 0
        var unreadable = 0
        let points = reader.points.compactMap { point -> (KMLReader.Point, Date)? in
            guard let time = ZonedTimeText.parse(point.time) else {
                unreadable += 1
                if unreadable <= 5 {
                    warnings.append(
                        "\(file): line \(point.line): <when>\(point.time)</when> is not a time of day; left out")
                }
                return nil
            }
            if let zone = time.localZone {
                localTimes += 1
                if localZone == nil { localZone = (zone.name, zone.offset, "line \(point.line): \"\(point.time)\"") }
            }
            return (point, time.date)
        }.sorted { $0.1 < $1.1 }
        for (point, time) in points {
            let parts = point.coordinate.split(whereSeparator: { $0 == "," || $0 == " " }).compactMap { Double($0) }
            guard parts.count >= 2, let coordinate = GeodeticCoordinate(latitude: parts[1], longitude: parts[0]) else {
                warnings.append("\(file): line \(point.line): \"\(point.coordinate)\" is not a position; left out")
                continue
            }
            if let last = fixes.last, time <= last.time {
                warnings.append(
                    "\(file): line \(point.line): a second point at \(UTCTime.format(time)); left out")
                continue
            }
            var altitude = parts.count >= 3 ? parts[2] : nil
            if altitude != nil, !point.absolute {
                droppedHeights += 1
                altitude = nil
            }
            fixes.append(
                LocationFix(
                    time: time, coordinate: coordinate, mode: altitude == nil ? .twoD : .threeD,
                    altitudeMeanSeaLevel: altitude))
        }
        guard !fixes.isEmpty else {
            throw .malformed(
                file: file, location: nil,
                problem: reader.lineStrings > 0 && reader.points.isEmpty
                    ? "only LineStrings, which have no times: a track needs a gx:Track or timed placemarks"
                    : "no point with a time (a gx:Track, or a Placemark with a TimeStamp and a Point)")
        }
        var summary = "\(fixes.count) fixes from \(reader.points.count) timed points (KML)"
        if droppedHeights > 0 {
            summary += "; \(droppedHeights) heights left out (altitudeMode not absolute: on or above the ground)"
        }
        if let localZone {
            summary += "; \(localTimes) times without a zone, read in \(localZone.name)"
            warnings.append(
                "\(file): "
                    + ZonedTimeText.warning(
                        count: localTimes, example: localZone.example, zone: (localZone.name, localZone.offset)))
        }
        return RecordedTrack(
            file: file, fixes: fixes, warnings: warnings, warningCount: warnings.count + max(0, unreadable - 5),
            summary: summary)
    }
}
