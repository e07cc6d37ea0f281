/// A video that ended before the frames its index promises: a file cut short (a copy stopped, a
/// card pulled, a camera whose battery died before it finished writing), found when reading ends.
public struct FootageShortfall: Hashable, Sendable, CustomStringConvertible {
    /// The frames the container's index promises.
    public var promised: Int
    /// The frames read (decoded or found damaged).
    public var read: Int
    /// The presentation time of the last frame read, in seconds from the start, when known.
    public var endSeconds: Double?

    /// Creates a shortfall.
    public init(promised: Int, read: Int, endSeconds: Double?) {
        self.promised = promised
        self.read = read
        self.endSeconds = endSeconds
    }

    /// Whether `read` of `promised` frames is short by more than a container's rounding: edit lists
    /// and a last frame's duration can make the two differ by a frame or two in a whole file.
    public static func isShort(read: Int, promised: Int) -> Bool {
        promised > 0 && promised - read > max(2, promised / 100)
    }

    /// "its index promises 315 frames and 190 were read: it stops at 7.6 s".
    public var description: String {
        "its index promises \(promised) frames and \(read) \(read == 1 ? "was" : "were") read"
            + (endSeconds.map { String(format: ": it stops at %.1f s", $0) } ?? "")
    }
}
