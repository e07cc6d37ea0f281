/// Which frames a live capture writes and how it switches cameras.
public struct LiveCaptureSettings: Sendable {
    /// The cameras to switch between (``LiveCapture/switchToNextDevice()``), in order; the first
    /// is where capture starts.
    public var devices: [String]
    /// How warm-up ends: write from the first frame, skip a few, or wait for the brightness to settle.
    public var warmUp: FrameSelector.WarmUp
    /// For a time-lapse, the time between written frames, by the frames' timestamps.
    public var every: Duration?
    /// Frames to write before the capture completes.
    public var count: Int?
    /// How long the capture runs (by the frames' timestamps) before it completes.
    public var duration: Duration?
    /// A broadcast whose viewers the capture slows down for: while no client watches its stream,
    /// one frame a second is annotated, encoded and published and the others are skipped
    /// (counted in ``LiveCapture/Counts/idleSkipped``), and the first client restores the full
    /// rate at the next frame. The camera keeps its rate (changing it would restart the stream
    /// on many drivers); what is saved is the drawing and encoding. As µStreamer's `--slowdown`.
    public var idleSlowdown: FrameBroadcast?
    /// Frames that may wait while one is drawn and written; when another comes, the oldest waiting
    /// is dropped (counted in ``LiveCapture/Counts/droppedBehind``). 4, the default, rides out a
    /// slow file write without a loss; 1 is for someone watching (`arcapture serve`): when the
    /// machine cannot keep up, the one frame waiting is always the newest, so what is shown lags
    /// the camera by at most one frame in hand, as µStreamer does. At least 1.
    public var maxWaitingFrames: Int

    /// Creates settings.
    public init(
        devices: [String], warmUp: FrameSelector.WarmUp = .none, every: Duration? = nil, count: Int? = nil,
        duration: Duration? = nil, idleSlowdown: FrameBroadcast? = nil, maxWaitingFrames: Int = 4
    ) {
        self.devices = devices
        self.warmUp = warmUp
        self.every = every
        self.count = count
        self.duration = duration
        self.idleSlowdown = idleSlowdown
        self.maxWaitingFrames = max(1, maxWaitingFrames)
    }
}
