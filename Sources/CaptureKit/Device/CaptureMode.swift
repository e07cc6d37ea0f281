import ArcaptureCore

/// One mode a camera advertises: a pixel format at one frame size, at the fastest rate the driver
/// lists there (what `arcapture check --all-formats` streams, one mode after another).
public struct CaptureMode: Hashable, Sendable {
    /// The pixel format.
    public var pixelFormat: FourCC
    /// Whether the driver marks the format compressed (MJPEG, H.264…).
    public var isCompressed: Bool
    /// The frame size.
    public var size: FrameSize
    /// The fastest rate offered at this size, or nil when the driver lists no intervals.
    public var framesPerSecond: Double?

    /// Creates a mode.
    public init(pixelFormat: FourCC, isCompressed: Bool = false, size: FrameSize, framesPerSecond: Double?) {
        self.pixelFormat = pixelFormat
        self.isCompressed = isCompressed
        self.size = size
        self.framesPerSecond = framesPerSecond
    }
}
