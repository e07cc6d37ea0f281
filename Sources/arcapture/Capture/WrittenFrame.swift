/// What the writer did with one frame, for the JSON-lines log.
struct WrittenFrame: Sendable {
    /// The file written, or nil for a stream.
    var file: String?
    /// Bytes written for the frame.
    var bytes: Int
    /// Whether the camera's MJPEG frame went out unchanged (apart from Huffman tables).
    var passedThrough: Bool
}
