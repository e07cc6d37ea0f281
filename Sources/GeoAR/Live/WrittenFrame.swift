/// What the writer did with one frame, for the JSON-lines log.
public struct WrittenFrame: Sendable {
    /// The file written, or nil for a stream.
    public var file: String?
    /// Bytes written for the frame.
    public var bytes: Int
    /// Whether the camera's MJPEG frame went out unchanged (apart from Huffman tables).
    public var passedThrough: Bool
}
