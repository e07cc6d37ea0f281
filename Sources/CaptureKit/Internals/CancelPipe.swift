import ArcaptureCore
import Glibc

/// A cancellation a thread blocked in `poll(2)` can wait on: a flag, and a self-pipe whose read
/// end becomes readable when ``cancel()`` writes a byte to it. Poll ``readDescriptor`` beside the
/// descriptors being watched; check ``isCancelled`` between waits.
///
/// One byte into an empty pipe never blocks, so no O_NONBLOCK is needed; both ends are
/// close-on-exec, so a program the process starts does not inherit them.
///
/// `@unchecked Sendable`: the descriptors are immutable and the kernel synchronises the pipe; the
/// flag is behind a `Locked`.
final class CancelPipe: @unchecked Sendable {
    /// The end to poll for `POLLIN`.
    let readDescriptor: Int32
    private let writeDescriptor: Int32
    private let cancelled = Locked(false)

    /// Creates the pipe; throws when the kernel refuses one (out of descriptors).
    init() throws(SystemCallError) {
        var descriptors: [Int32] = [-1, -1]
        _ = try SystemCall.retryingInterrupts("pipe") { pipe(&descriptors) }.get()
        for end in descriptors { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (readDescriptor, writeDescriptor) = (descriptors[0], descriptors[1])
    }

    deinit {
        _ = SystemCall.once("close") { close(readDescriptor) }
        _ = SystemCall.once("close") { close(writeDescriptor) }
    }

    /// Whether ``cancel()`` has been called.
    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// Sets the flag and wakes the polling thread. Safe from any thread; idempotent.
    func cancel() {
        cancelled.withLock { $0 = true }
        var byte: UInt8 = 1
        _ = SystemCall.retryingInterrupts("write") { write(writeDescriptor, &byte, 1) }
    }
}
