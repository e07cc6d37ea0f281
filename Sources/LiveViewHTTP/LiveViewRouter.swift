import Foundation
import GeoAR

/// What each path of a ``LiveViewServer`` answers: pure, so every route is tested without a socket.
struct LiveViewRouter: Sendable {
    /// What to do with a request.
    enum Route: Equatable {
        /// Send this response.
        case respond(HTTPResponse)
        /// Start a `multipart/x-mixed-replace` stream for a client named `key`.
        case stream(key: String?)
        /// Start a `text/event-stream` of the view's changes.
        case events
    }

    let model: any LiveViewModel
    let broadcast: FrameBroadcast
    /// The accounts every request must name, or nil for none.
    var authentication: BasicAuthentication?

    /// The routes and their methods (for 405's `Allow`).
    private static let methods: [String: [String]] = [
        "/": ["GET", "HEAD"], "/stream": ["GET", "HEAD"], "/snapshot": ["GET", "HEAD"], "/state": ["GET", "HEAD"],
        "/events": ["GET", "HEAD"], "/select": ["POST", "DELETE"],
    ]

    /// The answer to `request`, with `clients` the connected `/stream` clients.
    func route(_ request: LiveViewRequest, clients: () -> [LiveViewState.Client]) -> Route {
        if let authentication, !authentication.allows(request.authorization) {
            return .respond(
                .text(
                    401, "this server asks for a user and password",
                    headers: [("WWW-Authenticate", "Basic realm=\"\(BasicAuthentication.realm)\", charset=\"UTF-8\"")]))
        }
        guard let allowed = Self.methods[request.path] else {
            return .respond(.text(404, "no such page: \(request.path) (try /, /stream, /snapshot, /state or /events)"))
        }
        guard allowed.contains(request.method) else {
            return .respond(
                .text(
                    405, "\(request.path) takes \(allowed.joined(separator: " or ")), not \(request.method)",
                    headers: [("Allow", allowed.joined(separator: ", "))]))
        }
        switch request.path {
        case "/":
            // mjpg-streamer's URLs, which dashboards hard-code.
            switch request.query["action"] {
            case "stream": return .stream(key: request.query["key"])
            case "snapshot": return .respond(snapshot())
            default:
                return .respond(
                    HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: LiveViewPage.html))
            }
        case "/stream":
            return .stream(key: request.query["key"])
        case "/snapshot":
            return .respond(snapshot())
        case "/state":
            return .respond(.json(200, Self.serialize(model.state(clients: clients()).jsonObject)))
        case "/events":
            return .events
        default:
            return .respond(select(request))
        }
    }

    private func snapshot() -> HTTPResponse {
        guard let frame = broadcast.latest else {
            return .text(503, "no frame yet: the camera is starting", headers: [("Retry-After", "1")])
        }
        return HTTPResponse(
            status: 200, contentType: "image/jpeg", body: frame.jpeg,
            headers: [("X-Timestamp", BroadcastFrame.timestamp(frame.capturedAt))])
    }

    private struct Selection: Decodable {
        var ids: [String]
    }

    private func select(_ request: LiveViewRequest) -> HTTPResponse {
        if request.method == "DELETE" {
            model.clearSelection()
            return .json(200, Self.serialize(["selected": [String]()]))
        }
        if request.bodyTooLarge {
            return .text(413, "the body is larger than \(LiveViewServer.bodyLimit) bytes")
        }
        let selection: Selection
        do {
            selection = try JSONDecoder().decode(Selection.self, from: Data(request.body))
        } catch {
            return .text(400, "the body must be JSON like {\"ids\": [\"node/123\"]}: \(Self.describe(error))")
        }
        let ids = Set(selection.ids)
        let unknown = model.select(ids)
        guard unknown.isEmpty else {
            return .text(422, "no such point of interest: \(unknown.sorted().joined(separator: ", ")); nothing changed")
        }
        return .json(200, Self.serialize(["selected": ids.sorted()]))
    }

    /// `object` as JSON with sorted keys. It holds only strings, numbers, booleans, arrays,
    /// dictionaries and nulls, which always serialize; `{}` stands in should that ever not hold.
    static func serialize(_ object: [String: Any]) -> [UInt8] {
        (try? Array(JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])))
            ?? Array("{}".utf8)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "no '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context): context.debugDescription
        case DecodingError.valueNotFound(_, let context): context.debugDescription
        default: "\(error)"
        }
    }
}
