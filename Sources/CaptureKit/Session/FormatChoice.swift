import ArcaptureCore

/// The format, size and rate chosen for a request, with the reasons, before the driver is asked.
public struct FormatChoice: Hashable, Sendable {
    /// The pixel format.
    public var pixelFormat: FourCC
    /// The frame size.
    public var size: FrameSize
    /// The frame interval to ask for, or nil when the driver lists no rates for this size and none
    /// was requested.
    public var frameInterval: FrameInterval?
    /// Why each part was chosen, one line per decision, for `arcapture check` and logs.
    public var explanation: [String]

    /// Creates a choice.
    public init(pixelFormat: FourCC, size: FrameSize, frameInterval: FrameInterval?, explanation: [String]) {
        self.pixelFormat = pixelFormat
        self.size = size
        self.frameInterval = frameInterval
        self.explanation = explanation
    }
}
