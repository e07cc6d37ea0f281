import ArcaptureCore

/// What `check` keeps of each frame it received: enough to measure rate, drops, timing and
/// validity, without holding the pixels.
struct FrameRecord: Equatable, Sendable {
    /// The driver's frame counter.
    var sequence: UInt32
    /// Frames the driver skipped right before this one.
    var droppedBefore: UInt32
    /// The driver's timestamp in nanoseconds.
    var timestampNanoseconds: Int64
    /// Bytes of frame data.
    var bytesUsed: Int
    /// Why the frame is invalid, or nil when it is valid.
    var problem: String?
    /// An MJPEG frame taken on the session's structure check alone, not decoded: the decoder was
    /// behind (see `CheckRecorder.decodeBacklog`).
    var structureOnly = false
    /// An MJPEG frame handed to the decoder (its `problem` is the decoder's verdict).
    var decoded = false
    /// The picture's brightness and spread: a raw frame's, or a decoded MJPEG frame's; nil when
    /// not read (invalid, not decoded, or a format whose luma is not read).
    var luma: LumaStatistics?
    /// The frame's bytes are the frame before's, byte for byte.
    var repeatsPrevious = false
}
