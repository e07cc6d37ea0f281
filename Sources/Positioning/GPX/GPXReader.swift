import ArcaptureCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `XMLParser` delegate behind ``GPXFile``: collects points as elements close.
///
/// It lives only for one synchronous `parse()` call on one thread.
final class GPXReader: NSObject, XMLParserDelegate {
    let file: String
    var tracks: [GPXTrack] = []
    var routes: [GPXTrack] = []
    var waypoints: [GPXPoint] = []
    var warnings: [String] = []
    var problem: InputFileError?
    var sawRoot = false

    private var path: [String] = []
    private var text = ""
    private var point: GPXPoint?
    private var segment: [GPXPoint] = []
    private var current: GPXTrack?

    init(file: String) { self.file = file }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let name = Self.localName(elementName)
        if path.isEmpty {
            guard name == "gpx" else {
                fail(parser, "not a GPX file (the root element is <\(elementName)>)")
                return
            }
            sawRoot = true
        }
        path.append(name)
        text = ""
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

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        let name = Self.localName(elementName)
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        path.removeLast()
        text = ""
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

    /// libxml2 reports some errors (a mismatched end tag) without stopping; any error is fatal here,
    /// since a GPX file that is not well-formed cannot be trusted to hold the points it seems to.
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard problem == nil, xmlError == nil else { return }  // a GPX problem found first stands
        xmlError = (parseError, parser.lineNumber, parser.columnNumber)
        parser.abortParsing()
    }

    /// The first XML error libxml2 reported and where, worded by ``GPXFile`` (which has the data).
    var xmlError: (error: any Error, line: Int, column: Int)?

    private func fail(_ parser: XMLParser, _ what: String) {
        if problem == nil { problem = .malformed(file: file, location: "line \(parser.lineNumber)", problem: what) }
        parser.abortParsing()
    }

    private func warn(_ parser: XMLParser, _ what: String) {
        warnings.append("\(file): line \(parser.lineNumber): \(what)")
    }

    /// `gpx:trkpt` → `trkpt`: GPX files may use a namespace prefix.
    private static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }
}
