import Foundation

extension Decodable {
    /// Decodes a document the binary printed (snake_case keys).
    static func decode(_ text: String) throws -> Self {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Self.self, from: Data(text.utf8))
    }
}
