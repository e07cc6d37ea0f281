import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What the XML track readers (GPX, KML) share as `XMLParser` delegates: the path of open
/// elements by local name (a namespace prefix dropped: `gx:Track` → `Track`), and each element's
/// text, handed to ``close(_:value:parent:parser:)`` when it ends.
///
/// A subclass lives only for one synchronous `parse()` call on one thread.
class XMLElementReader: NSObject, XMLParserDelegate {
    /// The open elements, outermost first, by local name.
    private(set) var path: [String] = []
    private var text = ""

    /// The first XML error libxml2 reported and where, worded by the file type's reader (which has
    /// the data).
    var xmlError: (error: any Error, line: Int, column: Int)?

    /// Whether a problem of the subclass's own was found first, which then stands over XML errors.
    var hasOwnProblem: Bool { false }

    /// Called as `name` opens, after it is pushed on ``path``.
    func open(_ name: String, attributes: [String: String], parser: XMLParser) {}

    /// Called as `name` closes, after it is popped off ``path``, with its trimmed text and its
    /// parent's name.
    func close(_ name: String, value: String, parent: String, parser: XMLParser) {}

    final func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        let name = Self.localName(elementName)
        path.append(name)
        text = ""
        open(name, attributes: attributes, parser: parser)
    }

    final func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    final func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        let name = Self.localName(elementName)
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parent = path.count >= 2 ? path[path.count - 2] : ""
        path.removeLast()
        text = ""
        close(name, value: value, parent: parent, parser: parser)
    }

    /// libxml2 reports some errors (a mismatched end tag) without stopping; any error is fatal here,
    /// since a file that is not well-formed cannot be trusted to hold the points it seems to. (Here,
    /// not in a subclass: the conformance is this class's, so only its methods are the delegate's.)
    final func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard !hasOwnProblem, xmlError == nil else { return }
        xmlError = (parseError, parser.lineNumber, parser.columnNumber)
        parser.abortParsing()
    }

    /// `gpx:trkpt` → `trkpt`.
    static func localName(_ name: String) -> String {
        name.split(separator: ":").last.map(String.init) ?? name
    }
}
