import ArcaptureCore

/// What a video file's picture is, as its container and codec say, before any frame is decoded.
public struct VideoDescription: Sendable {
    /// Frame width in pixels.
    public var width: Int
    /// Frame height in pixels.
    public var height: Int
    /// The planes' chroma layout (4:2:0 for most video).
    public var subsampling: ChromaSubsampling
    /// Whether samples use the full 0–255 range (GoPro's `yuvj420p`) rather than video's 16–235.
    public var isFullRange: Bool
    /// The average frame rate the container states, nil when it states none.
    public var framesPerSecond: Double? {
        frameRate.map { Double($0.numerator) / Double($0.denominator) }
    }
    /// That rate as the container's fraction (30000/1001 for 29.97), nil when it states none.
    public var frameRate: (numerator: Int, denominator: Int)?
    /// The frames the container says the stream holds (0 when it does not say).
    public var frameCount: Int
    /// FFmpeg's name for the codec (`h264`).
    public var codec: String
}
