import ArcaptureCore
import CaptureKit
import Dispatch
import GeoAR

/// The source of `GET /events`: looks at the view's state five times a second and tells every
/// connected client what changed (phase, position, navigation, selection), and sends a heartbeat
/// after 15 seconds without a message.
///
/// Looking, rather than being told, catches every change whoever made it (the capture, the
/// location source, `/select`, `--select-center`), at a cost of one state read per look, and
/// none while no client is connected.
///
/// This type is thread-safe. Its looks run on its own serial queue.
final class EventFeed: Sendable {
    private struct State {
        var clients: [ObjectIdentifier: EventStreamClient] = [:]
        /// Each kind's last value sent.
        var last: [ServerSentEvent.Kind: [UInt8]] = [:]
        var looksSinceMessage = 0
        var closed = false
    }

    /// How often the state is looked at.
    static let interval: Duration = .milliseconds(200)
    /// Looks without a message before a heartbeat (15 s).
    static let heartbeatLooks = 75

    private let model: any LiveViewModel
    private let queue: DispatchQueue
    private let state = Locked(State())
    private let timer: RepeatingTimer

    /// A feed of `model`'s changes; it looks once ``start()`` is called.
    init(model: any LiveViewModel) {
        self.model = model
        let queue = DispatchQueue(label: "arcapture.serve.events")
        self.queue = queue
        timer = RepeatingTimer(queue: queue, interval: Self.interval)
    }

    /// The number of connected clients.
    var clientCount: Int { state.withLock { $0.clients.count } }

    /// Starts looking (once).
    func start() {
        timer.start { [weak self] in self?.look() }
    }

    /// The events a client connecting now starts with: every kind's current value.
    func current() -> [ServerSentEvent] {
        ServerSentEvent.events(from: model.state(clients: []).jsonObject)
    }

    /// Sends `client` every change from now on, until ``remove(_:)`` or ``close()``.
    func add(_ client: EventStreamClient) {
        let closed = state.withLock { state -> Bool in
            if !state.closed { state.clients[ObjectIdentifier(client)] = client }
            return state.closed
        }
        if closed { client.close() }
    }

    /// Forgets `client` (its connection closed).
    func remove(_ client: EventStreamClient) {
        _ = state.withLock { $0.clients.removeValue(forKey: ObjectIdentifier(client)) }
    }

    /// Stops looking and ends every client's stream.
    func close() {
        timer.cancel()
        let clients = state.withLock { state -> [EventStreamClient] in
            state.closed = true
            defer { state.clients = [:] }
            return Array(state.clients.values)
        }
        for client in clients { client.close() }
    }

    /// One look: the kinds whose value changed since the last look go to every client.
    private func look() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state.withLock({ !$0.clients.isEmpty && !$0.closed }) else { return }
        let events = current()
        let (clients, changed) = state.withLock { state -> ([EventStreamClient], [ServerSentEvent]) in
            var changed = events.filter { state.last[$0.kind] != $0.data }
            for event in changed { state.last[event.kind] = event.data }
            state.looksSinceMessage = changed.isEmpty ? state.looksSinceMessage + 1 : 0
            if state.looksSinceMessage >= Self.heartbeatLooks {
                state.looksSinceMessage = 0
                changed.append(.heartbeatMessage)
            }
            return (Array(state.clients.values), changed)
        }
        guard !changed.isEmpty else { return }
        for client in clients { client.offer(changed) }
    }
}
