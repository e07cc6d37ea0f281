/// Running counts for a session's current stream.
public struct CaptureStatistics: Hashable, Sendable {
    /// Frames handed to the frame handler.
    public var framesDelivered = 0
    /// Frames dropped because their data could not be trusted (see ``FrameRejection``).
    public var framesRejected = 0
    /// Frames the driver skipped, counted from gaps in the sequence numbers.
    public var framesDropped = 0
    /// Buffers skipped because the driver filled them before this stream started (a loopback
    /// device's newest frame from before the reader came); not frames of the stream.
    public var staleBuffersSkipped = 0
    /// Time from `VIDIOC_STREAMON` to the first dequeued frame.
    public var timeToFirstFrame: Duration?

    /// Creates empty statistics.
    public init() {}
}
