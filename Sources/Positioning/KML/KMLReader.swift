import ArcaptureCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The `XMLParser` delegate behind ``KMLFile``: collects timed points as elements close, from
/// `gx:Track` (its `when` and `gx:coord` lists, paired in order) and from placemarks with a
/// `TimeStamp` and a `Point`, with the `altitudeMode` in force for each.
///
/// It lives only for one synchronous `parse()` call on one thread.
final class KMLReader: XMLElementReader {
    /// A timed point as the file states it.
    struct Point {
        var time: String
        var coordinate: String
        /// Whether its altitude is above sea level (`altitudeMode` `absolute`); otherwise it is on
        /// or above the ground, which is not a height arcapture can use.
        var absolute: Bool
        var line: Int
    }

    let file: String
    var points: [Point] = []
    var warnings: [String] = []
    var sawRoot = false
    /// `LineString`s (a path with no times) met.
    var lineStrings = 0

    private var whens: [(text: String, line: Int)] = []
    private var coords: [String] = []
    private var placemarkTime: String?
    private var placemarkPoint: String?
    private var modes: [String?] = []

    init(file: String) { self.file = file }

    private var absolute: Bool {
        (modes.last(where: { $0 != nil }) ?? nil) == "absolute"
    }

    override func open(_ name: String, attributes: [String: String], parser: XMLParser) {
        if path.count == 1 {
            guard name == "kml" else {
                parser.abortParsing()
                return
            }
            sawRoot = true
        }
        switch name {
        case "Track":
            whens = []
            coords = []
            modes.append(nil)
        case "Placemark":
            placemarkTime = nil
            placemarkPoint = nil
            modes.append(nil)
        case "LineString": lineStrings += 1
        default: break
        }
    }

    override func close(_ name: String, value: String, parent: String, parser: XMLParser) {
        switch name {
        case "altitudeMode" where !modes.isEmpty && ["Track", "Point", "Placemark", "MultiTrack"].contains(parent):
            modes[modes.count - 1] = value
        case "when" where parent == "Track": whens.append((value, parser.lineNumber))
        case "coord" where parent == "Track": coords.append(value)
        case "when" where parent == "TimeStamp": placemarkTime = value
        case "coordinates" where parent == "Point": placemarkPoint = value
        case "Track":
            if whens.count != coords.count {
                warnings.append(
                    "\(file): line \(parser.lineNumber): a gx:Track with \(whens.count) <when> and \(coords.count) "
                        + "<gx:coord>: the first \(min(whens.count, coords.count)) paired")
            }
            let mode = absolute
            for (when, coord) in zip(whens, coords) {
                points.append(Point(time: when.text, coordinate: coord, absolute: mode, line: when.line))
            }
            modes.removeLast()
        case "Placemark":
            if let placemarkTime, let placemarkPoint {
                points.append(
                    Point(time: placemarkTime, coordinate: placemarkPoint, absolute: absolute, line: parser.lineNumber))
            }
            modes.removeLast()
        default: break
        }
    }
}
