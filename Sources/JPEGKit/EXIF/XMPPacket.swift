import ArcaptureCore
import Foundation

/// A JPEG's XMP packet (the APP1 segment headed `http://ns.adobe.com/xap/1.0/`), read for simple
/// properties by namespace: `drone-dji:GimbalYawDegree="-35.20"` as DJI writes them (attributes
/// of an `rdf:Description`), or `<drone-dji:GimbalYawDegree>-35.20</drone-dji:GimbalYawDegree>`
/// as exiftool does by default.
///
/// Not an XML parser, on purpose: arcapture reads a handful of simple properties (numbers) that
/// the two writers put in one of those two RDF forms, and finds them by namespace URI rather than
/// by prefix, so a file that binds the namespace to another prefix still reads. A full RDF/XML
/// reader (libexpat plus RDF's rules) would add a C dependency for no property arcapture uses;
/// structured values (`rdf:Seq`, nested resources) are not read.
public struct XMPPacket: Sendable {
    /// The packet's text.
    public let text: String

    /// The APP1 header that marks an XMP packet.
    static let identifier = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    /// The first XMP packet in the JPEG `bytes`' header segments, or nil without one.
    public init?(inJPEG bytes: [UInt8]) {
        let header = Self.identifier
        guard
            let segment = EXIFReader.headerSegment(
                in: bytes,
                matching: { marker, range in
                    // A packet of at least one byte after its header.
                    marker == 0xE1 && range.count > 4 + header.count
                        && JPEGStructure.hasIdentifier(header, range: range, in: bytes)
                })
        else { return nil }
        text = String(decoding: bytes[(segment.lowerBound + 4 + header.count)..<segment.upperBound], as: UTF8.self)
    }

    /// Creates a packet from its text.
    public init(text: String) { self.text = text }

    /// The prefixes the packet binds to `namespace` (`xmlns:drone-dji="http://www.dji.com/drone-dji/1.0/"`).
    private func prefixes(of namespace: String) -> [Substring] {
        var found: [Substring] = []
        var rest = text[...]
        while let binding = rest.range(of: "xmlns:") {
            let afterColon = rest[binding.upperBound...]
            guard let equals = afterColon.firstIndex(of: "=") else { break }
            let prefix = afterColon[..<equals].trimmingCharacters(in: .whitespaces)
            let value = Self.quoted(afterColon[afterColon.index(after: equals)...])
            if value?.value == namespace[...] { found.append(Substring(prefix)) }
            rest = value.map { afterColon[$0.end...] } ?? afterColon[equals...].dropFirst()
        }
        return found
    }

    /// The simple property `name` of `namespace`, as an attribute or an element, trimmed; nil
    /// when the packet has none.
    public func value(namespace: String, property name: String) -> String? {
        for prefix in prefixes(of: namespace) {
            let qualified = "\(prefix):\(name)"
            // An attribute: whitespace, the name, optional spaces, '=', a quoted value.
            var rest = text[...]
            while let found = rest.range(of: qualified) {
                defer { rest = rest[found.upperBound...] }
                guard found.lowerBound > text.startIndex,
                    text[text.index(before: found.lowerBound)].isWhitespace
                else { continue }
                let after = rest[found.upperBound...].drop { $0 == " " || $0 == "\t" }
                guard after.first == "=", let value = Self.quoted(after.dropFirst()) else { continue }
                return value.value.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            // An element: <prefix:Name>value</prefix:Name>.
            if let open = text.range(of: "<\(qualified)>"),
                let close = text[open.upperBound...].range(of: "</\(qualified)>")
            {
                let value = text[open.upperBound..<close.lowerBound]
                guard !value.contains("<") else { continue }  // a structured value
                return value.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        return nil
    }

    /// A value in single or double quotes at the start of `text` (after spaces), and where it ends.
    private static func quoted(_ text: Substring) -> (value: Substring, end: Substring.Index)? {
        let start = text.drop { $0 == " " || $0 == "\t" }
        guard let quote = start.first, quote == "\"" || quote == "'" else { return nil }
        let body = start.dropFirst()
        guard let close = body.firstIndex(of: quote) else { return nil }
        return (body[..<close], body.index(after: close))
    }
}
