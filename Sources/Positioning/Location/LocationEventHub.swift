import ArcaptureCore

/// The observer list and latest state every location source keeps: it remembers the status and the
/// newest fix, and hands each event to every observer, in the order they were added.
///
/// Observers run on the thread that publishes (a source's reader thread); they must not block.
final class LocationEventHub: Sendable {
    private struct State {
        var observers: [(id: Int, handler: @Sendable (LocationEvent) -> Void)] = []
        var nextID = 0
        var status: LocationStatus
        var latestFix: LocationFix?
    }

    private let state: Locked<State>

    init(status: LocationStatus) { state = Locked(State(status: status)) }

    var status: LocationStatus { state.withLock { $0.status } }
    var latestFix: LocationFix? { state.withLock { $0.latestFix } }

    /// Adds an observer; it is told the current status at once, so it never misses where things stand.
    func addObserver(_ handler: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        let (id, status) = state.withLock { state in
            defer { state.nextID += 1 }
            state.observers.append((state.nextID, handler))
            return (state.nextID, state.status)
        }
        handler(.status(status))
        return LocationObservation { [weak self] in
            self?.state.withLock { $0.observers.removeAll { $0.id == id } }
        }
    }

    /// Records `event` and hands it to every observer. A status equal to the current one is not
    /// repeated.
    func publish(_ event: LocationEvent) {
        let handlers: [@Sendable (LocationEvent) -> Void]? = state.withLock { state in
            switch event {
            case .status(let status):
                if status == state.status { return nil }
                state.status = status
            case .fix(let fix): state.latestFix = fix
            case .orientation, .warning: break
            }
            return state.observers.map(\.handler)
        }
        for handler in handlers ?? [] { handler(event) }
    }
}
