/// A request to a ``LiveViewServer``, as its router sees it.
struct LiveViewRequest: Sendable {
    /// `GET`, `POST`, …
    var method: String
    /// The path without the query: `/stream`.
    var path: String
    /// The query's arguments: `action=stream`, `key=kitchen`.
    var query: [String: String] = [:]
    /// The body (for `POST /select`).
    var body: [UInt8] = []
    /// Whether the body was cut off at the size limit.
    var bodyTooLarge = false
    /// The `Authorization` header, if sent.
    var authorization: String?
}
