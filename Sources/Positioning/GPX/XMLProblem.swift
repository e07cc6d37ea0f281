import ArcaptureCore
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What an `XMLParser` error means, in words: Foundation on Linux describes every one as "The
/// operation could not be completed. (NSXMLParserErrorDomain error 73.)". Its codes are libxml2's
/// `xmlParserErrors` (parser.h), so the common ones are named here; others keep their number.
enum XMLProblem {
    /// The error for `error`, which the parser reported at `line` and `column` while reading
    /// `file`'s `data`.
    ///
    /// A file cut short (a download or copy that stopped, a logger that lost power) fails on its
    /// last line with whatever the cut left half-written; that is said as such, since the code
    /// alone ("a '>' is missing") hides it.
    static func error(_ error: (any Error)?, line: Int, column: Int, file: String, data: Data)
        -> InputFileError
    {
        let code = (error as NSError?)?.code ?? 0
        if code != 4 && atEnd(line: line, column: column, of: data) {
            return .malformed(
                file: file, location: nil,
                problem: "the XML ends in the middle of an element at line \(line) (was the file cut short?)")
        }
        return .malformed(
            file: file, location: "line \(line)",
            problem: Self.words[code].map { "XML error: \($0)" } ?? "XML error \(code) (libxml2's code)")
    }

    /// Whether line and column (from 1) are where `data` ends, trailing white space aside.
    private static func atEnd(line: Int, column: Int, of data: Data) -> Bool {
        var end = data.endIndex
        while end > data.startIndex, [0x20, 0x0A, 0x0D, 0x09].contains(data[end - 1]) { end -= 1 }
        guard end > data.startIndex else { return false }
        let lines = data[..<end].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lastLineStart = data[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? data.startIndex
        return line >= lines && column >= end - lastLineStart
    }

    /// libxml2's codes for the mistakes real GPX files have.
    private static let words: [Int: String] = [
        4: "the document is empty",
        5: "there is more after the document's last element",
        9: "a character that XML does not allow",
        22: "an '&' that does not start an entity (write &amp;)",
        23: "an entity without its ';'",
        26: "an entity that is not declared (only &amp; &lt; &gt; &quot; &apos; and &#…; are known)",
        31: "an encoding that is not known",
        32: "an encoding that is not supported",
        34: "a quoted value that is not closed",
        38: "a '<' inside an attribute's value",
        39: "an attribute's value without quotes",
        40: "an attribute that is not finished",
        41: "an attribute without a value",
        42: "an attribute given twice",
        45: "a comment that is not closed",
        64: "a name starting with 'xml', which XML reserves",
        65: "a space is missing",
        68: "a name is missing",
        73: "a '>' is missing",
        76: "an end tag that does not match the element it closes",
        77: "an element that is not closed",
    ]
}
