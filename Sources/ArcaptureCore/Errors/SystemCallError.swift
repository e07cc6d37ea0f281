/// A system call or ioctl that failed, named the way v4l2-ctl and libcamera name it.
///
/// `description` reads `VIDIOC_S_FMT failed: Invalid argument`, so a log line says which request the
/// driver refused and why, without a debugger.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call, such as `VIDIOC_S_FMT`, `open` or `mmap`.
    public let call: String
    /// The error number the kernel returned.
    public let errno: Errno

    /// Creates an error for `call` failing with `errno`.
    public init(call: String, errno: Errno) {
        self.call = call
        self.errno = errno
    }

    /// `VIDIOC_S_FMT failed: Invalid argument`.
    public var description: String { "\(call) failed: \(errno.description)" }
}
