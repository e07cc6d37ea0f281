import ArcaptureCore
import Dispatch
import Foundation
import Glibc

/// Watches a streaming device's descriptor with `poll(2)` on a thread of its own and runs a
/// handler on the session queue each time the descriptor is ready.
///
/// Why not a `DispatchSourceRead`: on Linux, tearing a read source down (cancel, then close the
/// descriptor in its cancel handler) can leave libdispatch's epoll bookkeeping pointing at a freed
/// note, and its manager thread then crashes in `_dispatch_event_loop_drain` (SIGSEGV, no report).
/// arcapture hit it when a camera was unplugged mid-stream: twice in about 200 unplugs of the debug
/// build (issue 17). The same crash is open upstream as swift-corelibs-libdispatch#949, and
/// SourceKit-LSP worked around it the same way (swift-tools-protocols#73: no read source, a
/// thread that blocks instead). Here the descriptor belongs to this watcher until it says it is
/// done: the thread polls it, hands each readiness to the queue and waits for the handler to finish
/// (poll is level-triggered, so it must not poll again before the buffers are drained), and only
/// after its last `poll` returns does it run `finished` on the queue, where the caller closes the
/// descriptor. Nothing ever polls a closed or reused descriptor, and libdispatch never sees it.
///
/// `@unchecked Sendable`: the thread reads `descriptor` (immutable) and the cancellation, which
/// ``CancelPipe`` synchronises; handlers run on the queue, and the thread reads what one returned
/// only after the semaphore it signals.
final class ReadinessWatcher: @unchecked Sendable {
    private let descriptor: Int32
    private let queue: DispatchQueue
    private let cancellation: CancelPipe
    /// The handing over of one readiness at a time (the thread waits for each): reused, so a
    /// frame costs no allocation here.
    private let handled = DispatchSemaphore(value: 0)
    private let progressed = Locked(false)

    /// Creates a watcher; throws when the kernel refuses a pipe (out of descriptors).
    init(descriptor: Int32, queue: DispatchQueue) throws(SystemCallError) {
        self.descriptor = descriptor
        self.queue = queue
        cancellation = try CancelPipe()
    }

    /// Starts the watching thread.
    ///
    /// - Parameters:
    ///   - ready: runs on the queue each time the descriptor is readable or reports an error; it
    ///     returns whether it made progress (dequeued a buffer or ended the stream). A readiness
    ///     that yields nothing (a driver reporting `POLLERR` without an error to dequeue) makes the
    ///     thread pause briefly before polling again rather than spin.
    ///   - finished: runs on the queue once, after ``cancel()``, when the thread will never touch
    ///     the descriptor again: close it there.
    func start(ready: @escaping @Sendable () -> Bool, finished: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            watch(ready)
            queue.async { finished() }
        }
        thread.name = "arcapture.camera-readiness"
        thread.start()
    }

    /// Asks the thread to stop; `finished` follows on the queue. Safe from any thread, the queue
    /// included (a handler ending the stream).
    func cancel() { cancellation.cancel() }

    private func watch(_ ready: @escaping @Sendable () -> Bool) {
        let readiness = Int16(POLLIN | POLLERR | POLLHUP)
        while !cancellation.isCancelled {
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: cancellation.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            guard case .success = SystemCall.retryingInterrupts("poll", { poll(&descriptors, 2, -1) }) else {
                // Only ENOMEM is possible here; try again shortly (the stall timer bounds the wait).
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            if descriptors[1].revents != 0 || cancellation.isCancelled { return }
            // POLLNVAL would mean the descriptor was closed under the watcher: a bug, never spin on it.
            if descriptors[0].revents & Int16(POLLNVAL) != 0 { return }
            guard descriptors[0].revents & readiness != 0 else { continue }
            queue.async { [self] in
                let value = ready()
                progressed.withLock { $0 = value }
                handled.signal()
            }
            handled.wait()
            if !progressed.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.005) }
        }
    }
}
