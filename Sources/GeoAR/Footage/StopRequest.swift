import ArcaptureCore
import CaptureKit

/// A request to stop, made once from anywhere (a signal handler, another thread) and looked at by
/// a running pipeline between frames.
///
/// This type is thread-safe.
public final class StopRequest: Sendable {
    private let requested = Locked(false)

    /// A request not yet made.
    public init() {}

    /// The process's own stop: requested by the command line as soon as a stopping signal (Ctrl-C,
    /// SIGTERM, SIGHUP) arrives, before the command's handler runs. Waits that no frame loop
    /// reaches give up on it: a named pipe's open waiting for its reader (``AtomicFileWriter``),
    /// which a signal handled on a queue cannot interrupt.
    public static let process = StopRequest()

    /// Makes the request.
    ///
    /// - Returns: whether this call made it (false when it had been made already).
    @discardableResult
    public func request() -> Bool {
        requested.withLock { state in
            defer { state = true }
            return !state
        }
    }

    /// Whether the request has been made.
    public var isRequested: Bool { requested.withLock { $0 } }
}
