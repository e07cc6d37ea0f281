import ArcaptureCore
import Foundation

/// The dedicated thread a live source reads on (gpsd's socket, a serial port, a replay clock).
///
/// `body` runs in a loop on its own thread until ``stop()``; it should return within a fraction of
/// a second (waiting in `poll` with a short timeout) so stopping is prompt. ``stop()`` waits for the
/// thread to finish, so no event is published after it returns, except when called from the thread
/// itself (an observer stopping its source), which only asks it to end.
final class SourceThread: Sendable {
    private struct State {
        var stopping = false
        var running = false
        /// Signalled when this run's thread ends (one per run, so a stop from the thread itself
        /// cannot leave a signal behind for the next run).
        var finished: DispatchSemaphore?
        /// The running thread, recorded by the thread itself, to recognise a stop from inside.
        var threadID: pthread_t?
        /// Whether a thread is in its loop: set at start, cleared by the thread as it ends.
        var alive = false
    }

    private let state = Locked(State())
    private let name: String

    init(name: String) { self.name = name }

    /// Whether a thread runs `body` now: false before ``start(_:)`` and once the thread has ended
    /// (after which it publishes nothing).
    var isAlive: Bool { state.withLock { $0.alive } }

    /// Whether ``stop()`` was called: loops check it between waits.
    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Starts the thread running `body` repeatedly; does nothing if it runs already.
    func start(_ body: @escaping @Sendable (SourceThread) -> Void) {
        let finished = DispatchSemaphore(value: 0)
        let started = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.stopping = false
            state.running = true
            state.finished = finished
            state.threadID = nil
            state.alive = true
            return true
        }
        guard started else { return }
        let thread = Thread { [self] in
            state.withLock { $0.threadID = pthread_self() }
            while !isStopping { body(self) }
            state.withLock { $0.alive = false }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks the thread to end and, unless called on it, waits until it has.
    func stop() {
        let (finished, threadID) = state.withLock { state -> (DispatchSemaphore?, pthread_t?) in
            state.stopping = true
            state.running = false
            defer { (state.finished, state.threadID) = (nil, nil) }
            return (state.finished, state.threadID)
        }
        guard let finished else { return }
        if let threadID, pthread_equal(threadID, pthread_self()) != 0 { return }
        finished.wait()
    }

    /// Sleeps up to `seconds`, waking early when the thread is asked to stop. Returns false if it was.
    @discardableResult
    func sleep(_ seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if isStopping { return false }
            Thread.sleep(forTimeInterval: min(0.05, max(0, deadline.timeIntervalSinceNow)))
        }
        return !isStopping
    }
}
