/// Which frames a live capture writes and how it switches cameras.
public struct LiveCaptureSettings: Sendable {
    /// The cameras to switch between (``LiveCapture/switchToNextDevice()``), in order; the first
    /// is where capture starts.
    public var devices: [String]
    /// How warm-up ends: write from the first frame, skip a few, or wait for the brightness to settle.
    public var warmUp: FrameSelector.WarmUp
    /// For a time-lapse, seconds between written frames, by the frames' timestamps.
    public var every: Double?
    /// Frames to write before the capture completes.
    public var count: Int?
    /// Seconds of capture (by the frames' timestamps) before it completes.
    public var duration: Double?

    /// Creates settings.
    public init(
        devices: [String], warmUp: FrameSelector.WarmUp = .none, every: Double? = nil, count: Int? = nil,
        duration: Double? = nil
    ) {
        self.devices = devices
        self.warmUp = warmUp
        self.every = every
        self.count = count
        self.duration = duration
    }
}
