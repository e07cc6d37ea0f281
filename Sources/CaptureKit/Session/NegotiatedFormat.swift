/// What a running stream actually uses: the driver's answer to the session's request.
public struct NegotiatedFormat: Hashable, Sendable {
    /// What was asked for.
    public var request: FormatRequest
    /// What CaptureKit chose before asking the driver, with its reasons.
    public var choice: FormatChoice
    /// The format the driver applied (`VIDIOC_S_FMT`'s answer).
    public var format: V4L2Format
    /// The frame interval the driver applied, or nil when it cannot set one.
    public var frameInterval: FrameInterval?
    /// How many buffers the driver allocated.
    public var bufferCount: UInt32
    /// Whether frames come through libv4l2.
    public var usesLibV4L2: Bool
    /// What the driver changed from the choice, one line each (empty when it applied everything).
    public var adjustments: [String]
    /// The controls set when the stream started, from ``CaptureConfiguration/controls``.
    public var controls: [AppliedControl]

    /// Creates a record.
    public init(
        request: FormatRequest, choice: FormatChoice, format: V4L2Format, frameInterval: FrameInterval?,
        bufferCount: UInt32, usesLibV4L2: Bool, adjustments: [String], controls: [AppliedControl] = []
    ) {
        self.request = request
        self.choice = choice
        self.format = format
        self.frameInterval = frameInterval
        self.bufferCount = bufferCount
        self.usesLibV4L2 = usesLibV4L2
        self.adjustments = adjustments
        self.controls = controls
    }
}
