import CaptureKit
import Glibc

/// An output file that could not be written: its path, why, and whether it could not be created or
/// writing it failed (the command line maps these to exit statuses 73 and 74).
public struct OutputError: Error, CustomStringConvertible, Sendable {
    /// Whether the file could not be created (it exists, the directory is not writable) or writing
    /// it failed (a full disk, an I/O error); for a device written to (a virtual camera), whether
    /// it is no output at all, another program writes to it, or it may not be opened; or whether
    /// the run was stopped before the output could be opened (a named pipe no reader opened).
    public enum Kind: Sendable { case create, write, unavailable, busy, denied, stopped }

    /// The file, as given (`-` for stdout).
    public let path: String
    /// What went wrong, in a user's words.
    public let reason: String
    /// Whether creating or writing failed.
    public var kind: Kind = .create

    /// Creates an error.
    public init(path: String, reason: String, kind: Kind = .create) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }

    /// A failed write, flush or close of `path`, said from its errno.
    ///
    /// - Parameters:
    ///   - path: the output.
    ///   - errno: what the write, flush or close failed with.
    ///   - atomic: whether the output appears whole or not at all (``AtomicFileWriter``), which
    ///     the message then says; a log or a stream keeps what was written before.
    public init(path: String, writing errno: Int32, atomic: Bool = false) {
        var reason = Self.reason(writing: errno)
        if atomic && [ENOSPC, EDQUOT, EIO].contains(errno) { reason += " (no partial file is left)" }
        self.init(path: path, reason: reason, kind: .write)
    }

    /// A virtual camera that cannot be written, as an output error of the matching kind.
    public init(_ error: VirtualCameraError) {
        let kind: Kind
        switch error.kind {
        case .unavailable: kind = .unavailable
        case .busy: kind = .busy
        case .denied: kind = .denied
        case .failed: kind = .write
        }
        self.init(path: error.path, reason: error.description, kind: kind)
        isDevice = true
    }

    /// Whether the output is a device (a virtual camera) rather than a file: its reason then says
    /// everything.
    private var isDevice = false

    /// `cannot write 'PATH': REASON` (`cannot write to standard output: REASON` for `-`).
    public var description: String {
        if isDevice { return reason }
        return path == "-" ? "cannot write to standard output: \(reason)" : "cannot write '\(path)': \(reason)"
    }

    /// What a failed write's errno means to someone at a board or a laptop: the faults a disk, a
    /// card or a USB stick has are named.
    public static func reason(writing errno: Int32) -> String {
        switch errno {
        case ENOSPC: "the disk is full"
        case EDQUOT: "the disk quota is used up"
        case EIO: "an I/O error (EIO): the disk or card failed to store it"
        case EROFS: "the file system is read-only (it may have been remounted so after an error)"
        case EFBIG: "the file is too large for the file system (FAT keeps files under 4 GiB)"
        case EACCES, EPERM: "permission denied"
        default: "write failed (\(String(cString: strerror(errno))))"
        }
    }
}
