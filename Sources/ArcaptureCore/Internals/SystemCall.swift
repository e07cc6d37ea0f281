import Glibc

/// The one choke point through which CaptureKit (and GeoAR, for its output files) makes system calls.
///
/// Every `open`, `ioctl`, `mmap`, `munmap`, `read`, `stat`, `poll` and inotify call goes through
/// ``retryingInterrupts(_:_:)``, which
/// retries `EINTR` (a signal such as the CLI's SIGINT handler may interrupt a blocking call) and turns
/// `errno` into a ``SystemCallError`` that names the call. `EBADF` and `EFAULT` mean CaptureKit passed
/// a closed descriptor or a bad pointer: those are bugs in this code, not situations a user can fix, so
/// they stop the process with a precondition (SwiftNIO's rule) instead of being thrown.
package enum SystemCall {
    /// Runs `body` until it returns without `EINTR`.
    ///
    /// - Parameters:
    ///   - call: the name used in errors, such as `VIDIOC_DQBUF`.
    ///   - body: the raw call; it returns -1 and sets `errno` on failure, as C calls do.
    /// - Returns: the call's non-negative result, or the error naming `call`.
    package static func retryingInterrupts<Value: FixedWidthInteger & SignedInteger>(
        _ call: String,
        _ body: () -> Value
    ) -> Result<Value, SystemCallError> {
        while true {
            let result = body()
            if result >= 0 { return .success(result) }
            let error = Errno.current
            if error == .interrupted { continue }
            preconditionIsNotProgrammingError(error, call: call)
            return .failure(SystemCallError(call: call, errno: error))
        }
    }

    /// Runs `body` exactly once: for `close`, which must never be retried on Linux (the descriptor is
    /// released even when `close` reports `EINTR`, and a retry could close a descriptor another thread
    /// has just been given).
    package static func once(_ call: String, _ body: () -> Int32) -> Result<Int32, SystemCallError> {
        let result = body()
        if result >= 0 { return .success(result) }
        let error = Errno.current
        if error == .interrupted { return .success(0) }
        preconditionIsNotProgrammingError(error, call: call)
        return .failure(SystemCallError(call: call, errno: error))
    }

    private static func preconditionIsNotProgrammingError(_ error: Errno, call: String) {
        precondition(
            error != .badFileDescriptor && error != .badAddress,
            "\(call) failed with \(error.name): a closed descriptor or bad pointer is a bug in CaptureKit"
        )
    }
}
