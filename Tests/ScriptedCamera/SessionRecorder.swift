import ArcaptureCore
@_spi(Testing) import CaptureKit
import Dispatch

/// Records what a session reports (phases, frames, rejections) and lets a test wait for a
/// condition on it without sleeping: each event resumes the waiters whose condition now holds.
package final class SessionRecorder: Sendable {
    package struct Events: Sendable {
        package var phases: [CapturePhase] = []
        package var frames: [VideoFrame] = []
        package var rejections: [FrameRejection] = []
    }

    private struct Waiter {
        let id: Int
        let condition: @Sendable (Events) -> Bool
        let continuation: CheckedContinuation<Events, any Error>
    }

    /// A wait that did not end: what was recorded by then, so the failure says how far it got.
    package struct TimedOut: Error, CustomStringConvertible {
        package let events: Events
        package var description: String {
            "timed out: \(events.phases.map(\.description)), \(events.frames.count) frames, "
                + "\(events.rejections.count) rejections"
        }
    }

    /// How long a wait may take before the test fails instead of hanging the run.
    package static let timeout: Duration = .seconds(30)

    private struct State {
        var events = Events()
        var waiters: [Waiter] = []
        var nextID = 0
    }

    private let state = Locked(State())

    /// Attaches to `session`'s phase observer, frame handler and rejection observer.
    package init(_ session: CaptureSession) {
        session.addPhaseObserver { [self] phase in update { $0.phases.append(phase) } }
        session.setFrameHandler { [self] frame in update { $0.frames.append(frame) } }
        session.addRejectionObserver { [self] rejection in update { $0.rejections.append(rejection) } }
    }

    package var events: Events { state.withLock { $0.events } }

    /// Waits until `condition` holds for the recorded events; returns them.
    ///
    /// - Throws: ``TimedOut`` after ``timeout``, so a frame that never comes fails one test instead
    ///   of hanging the whole run.
    @discardableResult
    package func wait(until condition: @escaping @Sendable (Events) -> Bool) async throws -> Events {
        try await withCheckedThrowingContinuation { continuation in
            let id = state.withLock { state -> Int? in
                if condition(state.events) {
                    continuation.resume(returning: state.events)
                    return nil
                }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, condition: condition, continuation: continuation))
                return state.nextID
            }
            guard let id else { return }
            let seconds = Double(Self.timeout.components.seconds)
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
                self?.state.withLock { state in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return }
                    state.waiters.remove(at: index).continuation.resume(throwing: TimedOut(events: state.events))
                }
            }
        }
    }

    /// Waits for the session to reach a phase matching `match`.
    @discardableResult
    package func waitForPhase(_ match: @escaping @Sendable (CapturePhase) -> Bool) async throws -> Events {
        try await wait { $0.phases.contains(where: match) }
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
    package var isRunning: Bool {
        if case .running = self { return true }
        return false
    }

    package var failure: CaptureError? {
        if case .failed(let error) = self { return error }
        return nil
    }
}

extension SessionRecorder {
    /// A thread-safe counter for handlers that must not be called.
    package final class Counter: Sendable {
        private let count = Locked(0)
        /// A counter at 0.
        package init() {}
        package func increment() { count.withLock { $0 += 1 } }
        package var value: Int { count.withLock { $0 } }
    }
}
