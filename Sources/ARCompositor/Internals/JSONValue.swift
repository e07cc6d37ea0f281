import ArcaptureCore
import Foundation

/// A JSON document as values, decoded strictly (a number is never a Bool and a string is never a
/// number), so errors can say exactly what a field holds.
indirect enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Parses a JSON file's bytes; a syntax error names the line.
    static func parse(_ data: Data, file: String) throws(InputFileError) -> JSONValue {
        let decoded: JSONValue?
        do {
            decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            decoded = nil
        }
        guard let decoded else {
            let (location, reason) = syntaxError(in: data)
            throw .malformed(file: file, location: location, problem: reason)
        }
        return decoded
    }

    /// Where and why `data` is not JSON. JSONDecoder does not say where; JSONSerialization gives a
    /// character offset, turned here into a line.
    private static func syntaxError(in data: Data) -> (location: String?, reason: String) {
        let text: String
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return (nil, "not valid JSON")
        } catch {
            text = ((error as NSError).userInfo["NSDebugDescription"] as? String) ?? ""
        }
        if let range = text.range(of: "around character "),
            let offset = Int(text[range.upperBound...].prefix { $0.isNumber })
        {
            let line = data.prefix(offset).filter { $0 == UInt8(ascii: "\n") }.count + 1
            return ("line \(line)", "not valid JSON (\(text.prefix { $0 != " " }.lowercased()) value)")
        }
        if text.hasPrefix("Unexpected end of file") {
            let line = data.filter { $0 == UInt8(ascii: "\n") }.count + 1
            return ("line \(line)", "not valid JSON (the file ends too early)")
        }
        return (nil, "not valid JSON")
    }

    /// The member `key` of an object.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The value as JSON text, for error messages (short values whole, long ones cut).
    var summary: String {
        let text: String
        switch self {
        case .null: text = "null"
        case .bool(let value): text = String(value)
        case .number(let value):
            text = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .string(let value): text = "\"\(value)\""
        case .array(let items): text = "[" + items.map(\.summary).joined(separator: ", ") + "]"
        case .object: text = "an object"
        }
        return text.count > 80 ? String(text.prefix(77)) + "..." : text
    }
}
