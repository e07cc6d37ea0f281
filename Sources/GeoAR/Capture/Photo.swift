import ArcaptureCore
import Foundation

/// A still captured by a ``PhotoOutput``: a JPEG file's bytes and the frame it came from.
public struct Photo: Sendable {
    /// The JPEG file's bytes.
    public var data: [UInt8]
    /// The frame's sequence number.
    public var sequence: UInt32
    /// The frame's capture time.
    public var captureDate: Date
    /// The driver's timestamp in nanoseconds.
    public var timestampNanoseconds: Int64
    /// The image size.
    public var size: FrameSize
    /// Whether the camera's MJPEG frame was kept as it was (no re-encoding).
    public var passedThrough: Bool

    /// Creates a photo.
    public init(
        data: [UInt8], sequence: UInt32, captureDate: Date, timestampNanoseconds: Int64, size: FrameSize,
        passedThrough: Bool
    ) {
        self.data = data
        self.sequence = sequence
        self.captureDate = captureDate
        self.timestampNanoseconds = timestampNanoseconds
        self.size = size
        self.passedThrough = passedThrough
    }
}
