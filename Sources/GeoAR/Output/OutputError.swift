/// An output file that could not be written: its path, why, and whether it could not be created or
/// writing it failed (the command line maps these to exit statuses 73 and 74).
public struct OutputError: Error, CustomStringConvertible, Sendable {
    /// Whether the file could not be created (it exists, the directory is not writable) or writing
    /// it failed (a full disk, an I/O error).
    public enum Kind: Sendable { case create, write }

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

    /// `cannot write 'PATH': REASON`.
    public var description: String { "cannot write '\(path)': \(reason)" }
}
