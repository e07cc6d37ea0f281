import ArcaptureCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A GPX 1.1 file (GPX 1.0 reads the same way): its tracks, routes and waypoints.
///
/// Parsed with Foundation's `XMLParser` (libxml2 underneath). Namespaced extensions (Garmin's,
/// for instance) are ignored. Malformed XML and impossible coordinates are errors naming the line;
/// a point without a usable time is kept in ``tracks`` but left out of ``recordedTrack()`` with a
/// warning.
public struct GPXFile: Sendable {
    /// The file, as given.
    public var file: String
    /// `trk` elements, with their segments.
    public var tracks: [GPXTrack]
    /// `rte` elements.
    public var routes: [GPXTrack]
    /// `wpt` elements.
    public var waypoints: [GPXPoint]
    /// Problems that did not stop reading (a time that does not parse), each `FILE: line N: what`.
    public var warnings: [String]

    /// Reads `path`.
    ///
    /// - Throws: `InputFileError`.
    public init(contentsOf path: String) throws(InputFileError) {
        try self.init(data: InputFile.read(path), file: path)
    }

    /// Parses GPX `data`; `file` names it in messages.
    ///
    /// - Throws: `InputFileError/malformed(file:location:problem:)`.
    public init(data: Data, file: String) throws(InputFileError) {
        try XMLEncodingCheck.check(data, file: file, format: "GPX")
        let reader = GPXReader(file: file)
        let parser = XMLParser(data: data)
        parser.delegate = reader
        let parsed = parser.parse()
        if let problem = reader.problem { throw problem }
        if let (error, line, column) = reader.xmlError {
            throw XMLProblem.error(error, line: line, column: column, file: file, data: data)
        }
        guard parsed else {
            throw XMLProblem.error(
                parser.parserError, line: parser.lineNumber, column: parser.columnNumber, file: file, data: data)
        }
        guard reader.sawRoot else {
            throw .malformed(file: file, location: nil, problem: "not a GPX file (the root element is not <gpx>)")
        }
        self.file = file
        tracks = reader.tracks
        routes = reader.routes
        waypoints = reader.waypoints
        warnings = reader.warnings
    }

    /// The timed points of every track (and of routes whose points carry times), in time order, as
    /// fixes for interpolation.
    ///
    /// Elevations are taken as altitudes above mean sea level (what GPS units write), so the fixes'
    /// ellipsoidal altitude is nil and ``LocationFix/altitudeMeanSeaLevel`` holds the elevation.
    /// Points without a time, and points whose time is not after the previous point's, are left
    /// out with a warning naming their line.
    ///
    /// - Throws: `InputFileError` when no point has a time: the file cannot drive a clock.
    public func recordedTrack() throws(InputFileError) -> RecordedTrack {
        var warnings = self.warnings
        var fixes: [LocationFix] = []
        var untimed = 0
        let timedRoutes = routes.filter { route in route.points.contains { $0.time != nil } }
        for (number, track) in (tracks + timedRoutes).enumerated() {
            let kind = number < tracks.count ? "track" : "route"
            let label = track.name.map { "\(kind) '\($0)'" } ?? "a \(kind) without a name"
            let missing = track.points.filter { $0.time == nil }
            if let first = missing.first {
                untimed += missing.count
                warnings.append(
                    "\(file): line \(first.line): \(missing.count) of \(track.points.count) points of \(label) have no time; left out"
                )
            }
            for point in track.points {
                guard let time = point.time,
                    let coordinate = GeodeticCoordinate(latitude: point.latitude, longitude: point.longitude)
                else { continue }
                if let last = fixes.last, time <= last.time {
                    warnings.append(
                        "\(file): line \(point.line): time \(UTCTime.format(time)) is not after the previous point's (\(UTCTime.format(last.time))); point left out"
                    )
                    continue
                }
                fixes.append(
                    LocationFix(
                        time: time, coordinate: coordinate, mode: point.elevation == nil ? .twoD : .threeD,
                        altitudeMeanSeaLevel: point.elevation))
            }
        }
        guard !fixes.isEmpty else {
            throw .malformed(
                file: file, location: nil,
                problem: untimed > 0
                    ? "no track point has a <time> (\(untimed) without), so the track cannot be placed in time"
                    : "no track points (<trkpt>) with times")
        }
        let count = tracks.reduce(0) { $0 + $1.points.count } + timedRoutes.reduce(0) { $0 + $1.points.count }
        let summary =
            "\(fixes.count) fixes from \(count) points in \(tracks.count) tracks and \(timedRoutes.count) timed routes"
            + (untimed > 0 ? "; \(untimed) without time" : "") + "; \(waypoints.count) waypoints"
        return RecordedTrack(
            file: file, fixes: fixes, warnings: warnings, warningCount: warnings.count, summary: summary)
    }
}
