import ArcaptureCore
import CaptureKit
import Dispatch

/// A value shared both ways between a program and a view: the program reads and sets ``value``,
/// the view reads it for every frame and sets it when its own state changes.
///
/// What SwiftUI's `@State` and `Binding` do together, without SwiftUI: the box is the single source
/// of truth; ``onChange(on:_:)`` tells the program of the view's changes on the queue it chose. Bind
/// one to a view with ``GeoARView/navigationInfo(_:)`` or ``GeoARView/selectedPOIs(_:)``: bindings
/// are single, so binding a second one to the same role replaces the first.
///
/// This type is thread-safe.
public final class GeoARBinding<Value: Sendable & Equatable>: Sendable {
    private struct State {
        var value: Value
        var version = 0
        var onChange: (@Sendable (Value) -> Void)?
        var queue: DispatchQueue = .main
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

    /// Calls `handler` with each value the view sets, on `queue` (the main queue unless said).
    /// One handler: a second call replaces the first.
    public func onChange(on queue: DispatchQueue = .main, _ handler: @escaping @Sendable (Value) -> Void) {
        state.withLock { state in
            state.onChange = handler
            state.queue = queue
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
        let (changed, handler, queue) = state.withLock { state in
            guard state.value != newValue else { return (false, state.onChange, state.queue) }
            state.value = newValue
            state.version += 1
            return (true, state.onChange, state.queue)
        }
        if changed, notify, let handler { queue.async { handler(newValue) } }
        return changed
    }
}
