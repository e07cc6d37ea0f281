import ArcaptureCore
import CaptureKit

/// How a run ended: set once, by whichever comes first (the last frame, an error, Ctrl-C), and
/// awaited by any number of tasks.
package final class OutcomeLatch<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
        var callbacks: [@Sendable (Value) -> Void] = []
    }

    private let state = Locked(State())

    /// A latch with no value yet.
    package init() {}

    /// The value, once set.
    package var value: Value? { state.withLock { $0.value } }

    /// Sets the value and wakes the waiters, unless it is already set.
    ///
    /// - Returns: whether this call set it.
    @discardableResult
    package func set(_ value: Value) -> Bool {
        let woken = state.withLock { state -> ([CheckedContinuation<Value, Never>], [@Sendable (Value) -> Void])? in
            guard state.value == nil else { return nil }
            state.value = value
            defer {
                state.waiters = []
                state.callbacks = []
            }
            return (state.waiters, state.callbacks)
        }
        guard let (waiters, callbacks) = woken else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        for callback in callbacks { callback(value) }
        return true
    }

    /// Calls `callback` with the value once it is set (at once, on this thread, if it is), without
    /// needing a task: for code that must not depend on Swift concurrency's threads being free.
    package func whenSet(_ callback: @escaping @Sendable (Value) -> Void) {
        let ready = state.withLock { state -> Value? in
            if let value = state.value { return value }
            state.callbacks.append(callback)
            return nil
        }
        if let ready { callback(ready) }
    }

    /// Waits for the value.
    package func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Value? in
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
