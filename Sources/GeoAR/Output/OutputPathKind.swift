import ArcaptureCore
import CaptureKit
import Glibc

/// What is at a name given as an output, before anything is written, and so how
/// ``AtomicFileWriter`` writes it.
///
/// A device or a pipe is no file to replace: `--output /dev/null` (a run for its speed alone) or a
/// FIFO a player reads are written straight into. Renamed over, as a file is, the node itself
/// became a regular file: as root, `/dev/null` for every program on the machine (seen in this
/// project's own bench run, 2026-12-04). Symbolic links are followed, as `open(2)` follows them.
public enum OutputPathKind: Equatable, Sendable {
    /// Nothing is there (or a symbolic link to nothing): a new file appears.
    case absent
    /// A regular file, replaced whole (with `--force`).
    case file
    /// A folder, which no output replaces.
    case folder
    /// A character device or a FIFO (`/dev/null`, a named pipe), written straight into.
    case stream
    /// Something no output can be written to, said in words (`a block device`, `a socket`).
    case unusable(String)

    /// Looks at `path`, following symbolic links.
    public init(path: String) {
        var info = stat()
        guard case .success = SystemCall.retryingInterrupts("stat", { stat(path, &info) }) else {
            self = .absent
            return
        }
        self =
            switch info.st_mode & S_IFMT {
            case S_IFREG: .file
            case S_IFDIR: .folder
            case S_IFCHR, S_IFIFO: .stream
            case S_IFBLK: .unusable("a block device")
            case S_IFSOCK: .unusable("a socket")
            default: .unusable("not a regular file")
            }
    }

    /// Whether writing there replaces something that exists: what `--force` is asked for (a
    /// stream is written into, not replaced; a folder or a device is refused when writing starts).
    public var isReplaced: Bool {
        switch self {
        case .absent, .stream: false
        case .file, .folder, .unusable: true
        }
    }

    /// Whether `path` is a named pipe (a FIFO), whose open waits for a reader.
    public static func isNamedPipe(_ path: String) -> Bool {
        var info = stat()
        guard case .success = SystemCall.retryingInterrupts("stat", { stat(path, &info) }) else { return false }
        return info.st_mode & S_IFMT == S_IFIFO
    }
}
