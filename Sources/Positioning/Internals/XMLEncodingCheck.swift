import ArcaptureCore
import Foundation

/// The encodings an XML track (GPX, KML) may declare before libxml2 is given it: libxml2, through
/// FoundationXML, crashes on some declared encodings (UTF-7, found by fuzzing), so only those GPS
/// software writes are handed to it.
enum XMLEncodingCheck {
    /// - Throws: `InputFileError.malformed` naming `file` when `data` declares another encoding;
    ///   `format` names what is read (`GPX`).
    static func check(_ data: Data, file: String, format: String) throws(InputFileError) {
        let head = String(decoding: data.prefix(256), as: UTF8.self)
        guard head.hasPrefix("<?xml"),
            let range = head.range(of: #"encoding\s*=\s*["']([^"']*)["']"#, options: .regularExpression)
        else { return }
        let declared =
            head[range].split(whereSeparator: { $0 == "\"" || $0 == "'" }).dropFirst().first.map(String.init) ?? ""
        let readable = [
            "utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1", "iso-8859-15", "windows-1252", "utf-16",
        ]
        guard readable.contains(declared.lowercased()) else {
            throw .malformed(
                file: file, location: "line 1",
                problem: "the XML declares encoding '\(declared)'; \(format) is read in UTF-8, UTF-16 or Latin-1")
        }
    }
}
