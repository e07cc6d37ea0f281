/// Everything a ``CaptureSession`` needs to open and stream from a camera.
///
/// Change it between ``CaptureSession/beginConfiguration()`` and
/// ``CaptureSession/commitConfiguration()`` to apply several changes at once; a running session
/// restarts its stream once, on commit, when a change needs it.
public struct CaptureConfiguration: Hashable, Sendable {
    /// The device node, such as `/dev/video0` or a `/dev/v4l/by-id/…` link.
    public var devicePath: String?
    /// The format, size and rate wanted.
    public var format: FormatRequest
    /// How many buffers to ask the driver for. More buffers ride out longer stalls in the consumer at
    /// the cost of memory and latency; the driver may allocate a different number.
    public var bufferCount: UInt32
    /// How long to wait for a frame before failing with ``CaptureError/timeout(path:seconds:framesReceived:)``.
    public var frameTimeout: Duration
    /// Controls set each time the stream starts (again after a camera switch or reconnection, so
    /// a zoom is kept, clamped to each camera's range). Changing only these on a running session
    /// applies them without restarting the stream.
    public var controls: [ControlSetting]
    /// Whether to wait for the camera and resume when it goes away or stops sending, rather than
    /// fail. The camera is matched by its `/dev/v4l/by-id` link (or `by-path`), not by its
    /// `/dev/videoN` number, which can change when it is plugged back in.
    public var reconnects: Bool

    /// Creates a configuration with 4 buffers, a 5-second frame timeout and no controls.
    public init(
        devicePath: String? = nil, format: FormatRequest = FormatRequest(), bufferCount: UInt32 = 4,
        frameTimeout: Duration = .seconds(5), controls: [ControlSetting] = [], reconnects: Bool = false
    ) {
        self.devicePath = devicePath
        self.format = format
        self.bufferCount = bufferCount
        self.frameTimeout = frameTimeout
        self.controls = controls
        self.reconnects = reconnects
    }
}
