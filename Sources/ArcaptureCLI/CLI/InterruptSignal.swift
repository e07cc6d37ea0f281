import ArcaptureCore
import CaptureKit
import Dispatch
import Foundation
import GeoAR

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP for the whole process: by default they end it with status
/// 130; a command that holds a device or writes files sets its own handler to stop cleanly first.
/// SIGHUP is a stop like SIGTERM, not a reload: it is what a closed SSH session or terminal sends a
/// time-lapse started by hand, whose default action would end it mid-file. SIGUSR1 is ignored
/// unless a command handles it (`capture` switches to the next camera).
///
/// ``install()`` must run first thing in `main`, before any thread exists. It blocks the two
/// signals in the main thread, so every thread created later inherits the block, and listens with
/// dispatch signal sources. On Linux those read the signals through a signalfd, which only sees a
/// signal that no thread accepts: a thread that did not block it would take the signal and, with the
/// disposition ignored, drop it. (Blocking only in the thread that creates the sources, as
/// libdispatch does, loses Ctrl-C whenever the kernel picks another thread.)
public enum InterruptSignal {
    private static let handler = Locked<(@Sendable (Int32) -> Void)?>(nil)
    private static let userHandler = Locked<(@Sendable () -> Void)?>(nil)
    private nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []

    /// The signals that stop the process: Ctrl-C, a service manager's stop, a closed terminal.
    static let stopping: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks the stopping signals and SIGUSR1 in every future thread and starts listening.
    ///
    /// - Important: Call once, from `main`, before anything creates a thread.
    public static func install() {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in stopping + [SIGUSR1] { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        let queue = DispatchQueue(label: "arcapture.signals")
        sources = stopping.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                // First, for the waits no command's handler reaches (a named pipe's open).
                StopRequest.process.request()
                if let handler = handler.withLock({ $0 }) {
                    handler(number)
                } else {
                    exit(ExitStatus.interrupted.rawValue)
                }
            }
            source.resume()
            return source
        }
        let user = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: queue)
        user.setEventHandler { userHandler.withLock { $0 }?() }
        user.resume()
        sources.append(user)
        waitUntilRegistered()
    }

    /// Waits (at most two seconds) until libdispatch has registered the sources, which it does on
    /// its own queue after `resume()`: until then a stopping signal keeps its default action. The
    /// block holds such a signal pending only while the main thread runs; once the top-level code
    /// awaits, the main thread parks in `dispatch_main`'s `sigsuspend` with nothing blocked, and a
    /// pending SIGINT took its default action there, killing the process with no handler run. Seen
    /// once in a loaded run of the test suite: Ctrl-C during `check --wait` ended it by signal 2,
    /// not with 130. Registered, the signal is caught (libdispatch's handler passes it on to the
    /// source), so the wait ends when no stopping signal has its default action any more.
    private static func waitUntilRegistered() {
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline {
            let defaulted = (stopping + [SIGUSR1]).contains { number in
                var action = sigaction()
                let read = SystemCall.retryingInterrupts("sigaction") { sigaction(number, nil, &action) }
                guard case .success = read else { return false }
                return action.__sigaction_handler.sa_handler == nil
            }
            if !defaulted { return }
            usleep(200)
        }
    }

    /// Runs `body` with `onUserSignal` called for each SIGUSR1 (on a private queue).
    static func handlingUserSignal<Result>(_ onUserSignal: @escaping @Sendable () -> Void, body: () async -> Result)
        async
        -> Result
    {
        userHandler.withLock { $0 = onUserSignal }
        defer { userHandler.withLock { $0 = nil } }
        return await body()
    }

    /// Runs `body` with `onSignal` handling the stopping signals (SIGINT, SIGTERM, SIGHUP) instead
    /// of exiting at once.
    ///
    /// `onSignal` runs on a private queue; it should ask the work to stop, not wait for it.
    static func handling<Result>(onSignal: @escaping @Sendable (Int32) -> Void, body: () async -> Result) async
        -> Result
    {
        handler.withLock { $0 = onSignal }
        defer { handler.withLock { $0 = nil } }
        return await body()
    }
}
