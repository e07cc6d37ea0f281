import Synchronization

@testable import CaptureKit

/// Records what a session reports (phases, frames, rejections) and lets a test wait for a
/// condition on it without sleeping: each event resumes the waiters whose condition now holds.
final class SessionRecorder: Sendable {
    struct Events: Sendable {
        var phases: [CapturePhase] = []
        var frames: [VideoFrame] = []
        var rejections: [FrameRejection] = []
    }

    private struct Waiter {
        let condition: @Sendable (Events) -> Bool
        let continuation: CheckedContinuation<Events, Never>
    }

    private struct State {
        var events = Events()
        var waiters: [Waiter] = []
    }

    private let state = Mutex(State())

    /// Attaches to `session`'s phase observer, frame handler and rejection observer.
    init(_ session: CaptureSession) {
        session.addPhaseObserver { [self] phase in update { $0.phases.append(phase) } }
        session.setFrameHandler { [self] frame in update { $0.frames.append(frame) } }
        session.addRejectionObserver { [self] rejection in update { $0.rejections.append(rejection) } }
    }

    var events: Events { state.withLock { $0.events } }

    /// Waits until `condition` holds for the recorded events; returns them.
    @discardableResult
    func wait(until condition: @escaping @Sendable (Events) -> Bool) async -> Events {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if condition(state.events) {
                    continuation.resume(returning: state.events)
                } else {
                    state.waiters.append(Waiter(condition: condition, continuation: continuation))
                }
            }
        }
    }

    /// Waits for the session to reach a phase matching `match`.
    @discardableResult
    func waitForPhase(_ match: @escaping @Sendable (CapturePhase) -> Bool) async -> Events {
        await wait { $0.phases.contains(where: match) }
    }

    private func update(_ change: (inout Events) -> Void) {
        state.withLock { state in
            change(&state.events)
            var pending: [Waiter] = []
            for waiter in state.waiters {
                if waiter.condition(state.events) {
                    waiter.continuation.resume(returning: state.events)
                } else {
                    pending.append(waiter)
                }
            }
            state.waiters = pending
        }
    }
}

extension CapturePhase {
    var isRunning: Bool {
        if case .running = self { return true }
        return false
    }

    var failure: CaptureError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

extension SessionRecorder {
    /// A thread-safe counter for handlers that must not be called.
    final class Counter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
}
