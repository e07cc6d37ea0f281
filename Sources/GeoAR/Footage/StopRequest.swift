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
