import ArcaptureCore
import CaptureKit
import Dispatch

/// A Dispatch timer that calls a handler every `interval` on `queue` from ``start(_:)`` until
/// ``cancel()``: started once, and never started after being cancelled (a server stopped before
/// it started stays stopped).
///
/// This type is thread-safe.
package final class RepeatingTimer: Sendable {
    private struct State {
        var source: (any DispatchSourceTimer)?
        var cancelled = false
    }

    private let queue: DispatchQueue
    private let interval: Duration
    private let state = Locked(State())

    /// A timer that will call a handler on `queue` every `interval`.
    package init(queue: DispatchQueue, interval: Duration) {
        self.queue = queue
        self.interval = interval
    }

    /// Starts calling `handler`, the first time one interval from now (only the first call
    /// starts; the timer holds `handler` until cancelled, so let it hold its owner weakly).
    package func start(_ handler: @escaping @Sendable () -> Void) {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let started = state.withLock { state -> Bool in
            guard state.source == nil, !state.cancelled else { return false }
            state.source = source
            return true
        }
        guard started else { return }
        source.schedule(deadline: .now() + interval.dispatchInterval, repeating: interval.dispatchInterval)
        source.setEventHandler(handler: handler)
        source.resume()
    }

    /// Stops calling the handler (a call under way finishes).
    package func cancel() {
        let source = state.withLock { state -> (any DispatchSourceTimer)? in
            state.cancelled = true
            defer { state.source = nil }
            return state.source
        }
        source?.cancel()
    }
}
