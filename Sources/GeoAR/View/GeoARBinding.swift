import ArcaptureCore
import CaptureKit
import Dispatch

/// A value shared both ways between a program and a view: the program reads and sets ``value``,
/// the view reads it for every frame and sets it when its own state changes.
///
/// What SwiftUI's `@State` and `Binding` do together, without SwiftUI: the box is the single source
/// of truth; ``onChange(on:_:)`` tells the program of the view's changes (its own, and those its
/// user makes, in the live page) on the queue it chose; handlers compose, as a view's do. Bind
/// one to a view with ``GeoARView/navigationInfo(_:)`` or ``GeoARView/selectedPOIs(_:)``: bindings
/// are single, so binding a second one to the same role replaces the first.
///
/// This type is thread-safe.
public final class GeoARBinding<Value: Sendable & Equatable>: Sendable {
    private struct State {
        var value: Value
        var version = 0
        var handlers: [Handler] = []
        /// ``changes`` being iterated, by a number of their own (to drop one when its loop ends).
        var streams: [Int: AsyncStream<Value>.Continuation] = [:]
        var nextStream = 0
    }

    /// A handler and the queue it runs on.
    private struct Handler {
        let queue: DispatchQueue
        let run: @Sendable (Value) -> Void
    }

    private let state: Locked<State>

    /// Creates a binding holding `initial`.
    public init(_ initial: Value) {
        state = Locked(State(value: initial))
    }

    /// The value now. Setting it from code is seen by the bound view from its next frame.
    public var value: Value {
        get { state.withLock { $0.value } }
        set { _ = update(newValue, notify: false) }
    }

    /// Adds a handler called with each value the view sets, on `queue` (the main queue unless
    /// said). Handlers compose: each added one runs, in the order added, as a view's handlers do
    /// (two parts of a program can each follow the selection). A value set from code (``value``)
    /// is not echoed back to them.
    public func onChange(on queue: DispatchQueue = .main, _ handler: @escaping @Sendable (Value) -> Void) {
        state.withLock { $0.handlers.append(Handler(queue: queue, run: handler)) }
    }

    /// The values the view sets from now on, for a `for await` loop: what ``onChange(on:_:)``
    /// handlers hear, yielded as they come (on no queue: a program that never runs the main queue
    /// gets them too); a value set from code is not echoed. The loop ends when its task is
    /// cancelled; each loop gets every value (the newest 64 if it falls behind).
    public var changes: AsyncStream<Value> {
        AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let id = state.withLock { state -> Int in
                defer { state.nextStream += 1 }
                state.streams[state.nextStream] = continuation
                return state.nextStream
            }
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
            }
        }
    }

    /// How many times the value has changed: the view compares it to see code's changes.
    var version: Int { state.withLock { $0.version } }

    /// The value and its version, read together.
    var snapshot: (value: Value, version: Int) { state.withLock { ($0.value, $0.version) } }

    /// Sets the value (unless equal), and, when `notify`, tells the program.
    ///
    /// - Returns: whether the value changed.
    @discardableResult
    func update(_ newValue: Value, notify: Bool) -> Bool {
        let (changed, handlers) = state.withLock { state -> (Bool, [Handler]) in
            guard state.value != newValue else { return (false, []) }
            state.value = newValue
            state.version += 1
            guard notify else { return (true, []) }
            // Yielded under the lock (a yield never blocks), so each loop sees the values in order.
            for stream in state.streams.values { stream.yield(newValue) }
            return (true, state.handlers)
        }
        for handler in handlers { handler.queue.async { handler.run(newValue) } }
        return changed
    }
}
