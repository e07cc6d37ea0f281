import Foundation

/// One message of `GET /events` (Server-Sent Events, the WHATWG HTML standard's
/// `text/event-stream`): a change of the view's phase, position, navigation or selection, with
/// its new value as JSON under the key `/state` has it.
struct ServerSentEvent: Equatable, Sendable {
    /// What changed; the event's name in the stream.
    enum Kind: String, CaseIterable, Sendable {
        /// `{"phase": "running"}`.
        case phase
        /// `{"location": {...}}`: the source's status and its fix (`/state`'s `location`).
        case coordinate
        /// `{"navigation": {...}}`, or `{"navigation": null}` when navigation stops.
        case navigation
        /// `{"selected": ["node/1"]}`.
        case selection
        /// A comment line with no data, sent when nothing changed for a while: it keeps proxies
        /// from closing the connection and finds clients that vanished (the write fails).
        case heartbeat

        /// The key of `/state`'s document this kind carries.
        var stateKey: String? {
            switch self {
            case .phase: "phase"
            case .coordinate: "location"
            case .navigation: "navigation"
            case .selection: "selected"
            case .heartbeat: nil
            }
        }
    }

    let kind: Kind
    /// The JSON object, one line (JSON from `JSONSerialization` without pretty printing has no
    /// line breaks: those in strings are escaped, so one `data:` line holds it).
    let data: [UInt8]

    /// The stream's first bytes: how long a browser waits before reconnecting (1 s; the default
    /// of 3 s is long for a camera view).
    static let preamble = Array("retry: 1000\n\n".utf8)

    static let heartbeatMessage = ServerSentEvent(kind: .heartbeat, data: [])

    /// The message as it goes on the wire.
    var bytes: [UInt8] {
        guard kind != .heartbeat else { return Array(":\n\n".utf8) }
        return Array("event: \(kind.rawValue)\ndata: ".utf8) + data + Array("\n\n".utf8)
    }

    /// One event of every kind but the heartbeat, from `/state`'s document.
    static func events(from state: [String: Any]) -> [ServerSentEvent] {
        Kind.allCases.compactMap { kind in
            guard let key = kind.stateKey else { return nil }
            let value: Any = state[key] ?? NSNull()
            return ServerSentEvent(kind: kind, data: LiveViewRouter.serialize([key: value]))
        }
    }
}
