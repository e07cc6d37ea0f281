import Foundation

/// Writes bytes into a named pipe from a thread of its own, for a program under test that reads
/// the pipe as its input: held open after the last byte (the reader waits for more, however fast
/// it is) or closed once the reader has taken everything (the reader sees the end).
///
/// The pipe is opened read-write and non-blocking, so opening never waits for a reader, and a
/// reader killed midway never leaves the feeder blocked in `write`: it checks ``stop()`` every
/// 50 ms.
///
/// - Important: the thread owns the descriptor; ``stop()`` may be called from any thread, any
///   number of times, and returns once the thread has closed it.
public final class PipeFeeder: @unchecked Sendable {
    private let lock = NSLock()
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    private var joined = false

    /// Opens the pipe at `path` and starts writing `bytes` into it.
    ///
    /// - Parameter closeAtEnd: whether to close the pipe once a reader has taken every byte
    ///   (rather than hold it open until ``stop()``).
    /// - Throws: `SpawnFailed` when the pipe cannot be opened.
    public init(path: String, bytes: Data, closeAtEnd: Bool) throws {
        let descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw SpawnFailed(description: "cannot open the pipe \(path): \(String(cString: strerror(errno)))")
        }
        Thread.detachNewThread { [self] in
            defer {
                close(descriptor)
                finished.signal()
            }
            var offset = 0
            while !isStopping {
                if offset == bytes.count {
                    // Everything is in the pipe: closed once the reader has drained it (closing
                    // earlier would throw away what is still buffered if no reader has it open).
                    var unread: Int32 = 0
                    if closeAtEnd && ioctl(descriptor, UInt(FIONREAD), &unread) == 0 && unread == 0 { return }
                    usleep(50_000)
                    continue
                }
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                guard poll(&ready, 1, 50) > 0 else { continue }
                let written = bytes.withUnsafeBytes { raw in
                    raw.baseAddress.map { write(descriptor, $0 + offset, min(65_536, bytes.count - offset)) } ?? -1
                }
                if written > 0 { offset += written }
            }
        }
    }

    private var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Stops writing and closes the pipe; returns once it is closed.
    public func stop() {
        lock.lock()
        stopping = true
        let wait = !joined
        joined = true
        lock.unlock()
        if wait { finished.wait() }
    }
}
