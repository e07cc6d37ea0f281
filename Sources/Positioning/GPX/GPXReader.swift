import ArcaptureCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `XMLParser` delegate behind ``GPXFile``: collects points as elements close.
///
/// It lives only for one synchronous `parse()` call on one thread.
final class GPXReader: XMLElementReader {
    let file: String
    var tracks: [GPXTrack] = []
    var routes: [GPXTrack] = []
    var waypoints: [GPXPoint] = []
    var warnings: [String] = []
    var problem: InputFileError?
    var sawRoot = false

    private var point: GPXPoint?
    private var segment: [GPXPoint] = []
    private var current: GPXTrack?

    init(file: String) { self.file = file }

    override func open(_ name: String, attributes: [String: String], parser: XMLParser) {
        if path.count == 1 {
            guard name == "gpx" else {
                fail(parser, "not a GPX file (the root element is <\(name)>)")
                return
            }
            sawRoot = true
        }
        switch name {
        case "trk", "rte": current = GPXTrack(name: nil, segments: name == "rte" ? [[]] : [])
        case "trkseg": segment = []
        case "trkpt", "rtept", "wpt":
            guard let latitudeText = attributes["lat"], let longitudeText = attributes["lon"] else {
                fail(parser, "<\(name)> needs lat and lon attributes")
                return
            }
            guard let latitude = Double(latitudeText), (-90...90).contains(latitude),
                let longitude = Double(longitudeText), (-180...180).contains(longitude)
            else {
                fail(parser, "<\(name)> has lat=\"\(latitudeText)\" lon=\"\(longitudeText)\": not a position")
                return
            }
            point = GPXPoint(latitude: latitude, longitude: longitude, line: parser.lineNumber)
        default: break
        }
    }

    override func close(_ name: String, value: String, parent: String, parser: XMLParser) {
        switch name {
        case "ele" where point != nil && ["trkpt", "rtept", "wpt"].contains(parent):
            guard let elevation = Double(value), elevation.isFinite else {
                warn(parser, "<ele>\(value)</ele> is not a number; ignored")
                return
            }
            point?.elevation = elevation
        case "time" where point != nil && ["trkpt", "rtept", "wpt"].contains(parent):
            guard let time = UTCTime.parse(value) else {
                warn(parser, "<time>\(value)</time> is not an ISO 8601 time; point has no time")
                return
            }
            point?.time = time
        case "name" where ["trkpt", "rtept", "wpt"].contains(parent): point?.name = value
        case "name" where ["trk", "rte"].contains(parent): current?.name = value
        case "trkpt":
            if let point { segment.append(point) }
            point = nil
        case "rtept":
            if let point { current?.segments[0].append(point) }
            point = nil
        case "wpt":
            if let point { waypoints.append(point) }
            point = nil
        case "trkseg": current?.segments.append(segment)
        case "trk":
            if let current { tracks.append(current) }
            current = nil
        case "rte":
            if let current { routes.append(current) }
            current = nil
        default: break
        }
    }

    override var hasOwnProblem: Bool { problem != nil }

    private func fail(_ parser: XMLParser, _ what: String) {
        if problem == nil { problem = .malformed(file: file, location: "line \(parser.lineNumber)", problem: what) }
        parser.abortParsing()
    }

    private func warn(_ parser: XMLParser, _ what: String) {
        warnings.append("\(file): line \(parser.lineNumber): \(what)")
    }
}
