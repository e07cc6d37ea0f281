/// A video file could not be written: the encoder or muxer refused, or the disk failed.
public struct VideoWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file being written.
    public var path: String
    /// What went wrong, in FFmpeg's words where it gave some.
    public var problem: String
    /// Whether the output itself could not be made (no encoder, a codec the container cannot
    /// hold) rather than writing it failed part way.
    public var cannotStart: Bool
    /// The system's error number when the disk or file system failed (ENOSPC, EIO), else nil.
    public var errno: Int32?

    /// Creates the error.
    public init(path: String, problem: String, cannotStart: Bool = false, errno: Int32? = nil) {
        self.path = path
        self.problem = problem
        self.cannotStart = cannotStart
        self.errno = errno
    }

    /// `path: problem`.
    public var description: String { "\(path): \(problem)" }
}
