import Foundation
import Positioning

/// One captured frame: its bytes exactly as the driver filled them, and when and in what order it
/// was captured.
public struct VideoFrame: Sendable {
    /// The frame data (`bytesused` bytes of the buffer): packed or planar pixels for raw formats, one
    /// JPEG image for MJPEG.
    public var data: [UInt8]
    /// The format the frame is in.
    public var format: V4L2Format
    /// The driver's frame counter.
    public var sequence: UInt32
    /// Frames the driver skipped right before this one (a gap in ``sequence``).
    public var droppedBefore: UInt32
    /// The driver's timestamp in nanoseconds, on CLOCK_MONOTONIC when ``flags`` says so.
    public var timestampNanoseconds: Int64
    /// The capture time as wall-clock time: the timestamp mapped through CLOCK_REALTIME once per
    /// stream, so frames keep the driver's spacing even if the system clock is stepped mid-stream.
    public var captureDate: Date
    /// The driver's flags for this buffer.
    public var flags: BufferFlags
    /// The session's location source status when the frame was delivered: a frame captured while
    /// the source has no fix says so (``hasPosition`` is false) instead of being held back.
    public var locationStatus: LocationStatus
    /// The device node the frame came from, as the session opened it (a `/dev/v4l/by-id` link
    /// after a reconnect); empty for frames that did not come from a device. With several cameras
    /// (a switch), it says which camera took the frame.
    public var devicePath: String

    /// Whether the location source had a position (or needed none) for this frame.
    public var hasPosition: Bool { locationStatus.isPositionReady }

    /// Creates a frame.
    public init(
        data: [UInt8], format: V4L2Format, sequence: UInt32, droppedBefore: UInt32, timestampNanoseconds: Int64,
        captureDate: Date, flags: BufferFlags, locationStatus: LocationStatus = .notRequired, devicePath: String = ""
    ) {
        self.data = data
        self.format = format
        self.sequence = sequence
        self.droppedBefore = droppedBefore
        self.timestampNanoseconds = timestampNanoseconds
        self.captureDate = captureDate
        self.flags = flags
        self.locationStatus = locationStatus
        self.devicePath = devicePath
    }
}
