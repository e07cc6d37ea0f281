/// A whole response of a ``LiveViewServer``: status, headers and body.
struct HTTPResponse: Equatable, Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    init(status: Int, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType), ("Cache-Control", "no-store")] + headers
        self.body = body
    }

    /// A plain-text response: one line saying what happened.
    static func text(_ status: Int, _ line: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, contentType: "text/plain; charset=utf-8", body: Array((line + "\n").utf8), headers: headers)
    }

    /// A JSON response.
    static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: body)
    }

    static func == (left: HTTPResponse, right: HTTPResponse) -> Bool {
        left.status == right.status && left.body == right.body
            && left.headers.map { "\($0.name): \($0.value)" } == right.headers.map { "\($0.name): \($0.value)" }
    }
}
