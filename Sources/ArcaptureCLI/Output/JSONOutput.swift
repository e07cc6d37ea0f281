import Foundation

/// Encodes reports as the stable JSON arcapture documents: snake_case keys, sorted, pretty-printed,
/// with explicit nulls where a field has no value (so a reader never needs to guess whether a key
/// was forgotten).
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            // Only non-finite numbers can fail here, and reports hold none; say so rather than crash.
            return "{\"schema_error\": \"\(error)\"}"
        }
    }
}

/// A value that encodes as JSON `null` when absent instead of being left out.
struct Nullable<Wrapped: Encodable & Sendable>: Encodable, Sendable {
    let value: Wrapped?

    init(_ value: Wrapped?) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
