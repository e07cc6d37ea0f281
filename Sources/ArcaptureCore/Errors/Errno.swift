import Glibc

/// An error number reported by the kernel, such as `EBUSY` or `EACCES`.
///
/// Errno values form an open set, so this is a `RawRepresentable` struct rather than a closed enum:
/// a driver may return any value, and it is carried through unchanged.
public struct Errno: RawRepresentable, Error, Hashable, Sendable, CustomStringConvertible {
    /// The numeric value, as `errno` holds it.
    public let rawValue: Int32

    /// Wraps a numeric errno value.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The value of `errno` on the calling thread.
    package static var current: Errno { Errno(rawValue: errno) }

    /// The C library's message for this error, such as "Device or resource busy".
    public var description: String { String(cString: strerror(rawValue)) }

    /// The symbolic name, such as `EBUSY`, or `errno N` for a value without one here.
    public var name: String {
        switch rawValue {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case ENXIO: "ENXIO"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EFAULT: "EFAULT"
        case EBUSY: "EBUSY"
        case ENODEV: "ENODEV"
        case EINVAL: "EINVAL"
        case ENOSPC: "ENOSPC"
        case EPIPE: "EPIPE"
        case ERANGE: "ERANGE"
        case ENOTTY: "ENOTTY"
        case ETIMEDOUT: "ETIMEDOUT"
        case ENODATA: "ENODATA"
        case ECONNREFUSED: "ECONNREFUSED"
        case EINPROGRESS: "EINPROGRESS"
        case EHOSTUNREACH: "EHOSTUNREACH"
        case ENETUNREACH: "ENETUNREACH"
        default: "errno \(rawValue)"
        }
    }

    /// `EPERM`: the operation is not permitted (for device nodes: a security policy said no).
    public static let notPermitted = Errno(rawValue: EPERM)
    /// `ENOENT`: no such file or directory.
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// `EINTR`: a signal interrupted the call.
    public static let interrupted = Errno(rawValue: EINTR)
    /// `EIO`: an input/output error; for V4L2 streaming, the driver's queue is in an error state.
    public static let ioError = Errno(rawValue: EIO)
    /// `ENXIO`: the device node exists but its device does not.
    public static let noSuchDeviceOrAddress = Errno(rawValue: ENXIO)
    /// `EBADF`: a bad file descriptor (always a bug in the caller).
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// `EAGAIN`: nothing is ready yet on a non-blocking descriptor.
    public static let wouldBlock = Errno(rawValue: EAGAIN)
    /// `ENOMEM`: out of memory (for V4L2: no buffers could be allocated).
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// `EACCES`: permission denied by the file's owner, group and mode.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// `EFAULT`: a bad address was passed (always a bug in the caller).
    public static let badAddress = Errno(rawValue: EFAULT)
    /// `EBUSY`: another file handle owns the device's streaming queue.
    public static let busy = Errno(rawValue: EBUSY)
    /// `ENODEV`: the device is gone (a USB camera was unplugged).
    public static let noSuchDevice = Errno(rawValue: ENODEV)
    /// `EINVAL`: the driver rejected an argument, or the end of an enumeration.
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// `ENOTTY`: the driver does not implement this ioctl.
    public static let notSupported = Errno(rawValue: ENOTTY)
    /// `EPIPE`: a broken pipe (a reader went away), or a V4L2 pipeline misconfiguration.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// `ENOSPC`: no space left on the device, or the USB bus has no bandwidth left for the stream.
    public static let noSpace = Errno(rawValue: ENOSPC)
}
