import ArcaptureCore

/// What the caller wants from a camera; ``FormatSelector`` turns it into a concrete format, size and
/// rate, and the driver has the last word.
public struct FormatRequest: Hashable, Sendable {
    /// The pixel format, or nil to let CaptureKit choose (see ``FormatSelector``).
    public var pixelFormat: FourCC?
    /// The frame size, or nil for the driver's current size.
    public var size: FrameSize?
    /// The frame rate, or nil for the fastest offered up to 30 fps.
    public var framesPerSecond: Double?
    /// Whether frames may come through libv4l2's conversion layer.
    public var conversion: ConversionMode

    /// Creates a request; every part defaults to "choose for me".
    public init(
        pixelFormat: FourCC? = nil, size: FrameSize? = nil, framesPerSecond: Double? = nil,
        conversion: ConversionMode = .automatic
    ) {
        self.pixelFormat = pixelFormat
        self.size = size
        self.framesPerSecond = framesPerSecond
        self.conversion = conversion
    }
}

/// Whether capture goes through raw ioctls or libv4l2's conversion layer.
public enum ConversionMode: String, Hashable, Sendable, CaseIterable {
    /// Raw ioctls, unless the device offers no format CaptureKit handles natively (a Bayer-only
    /// sensor, say); then libv4l2 converts.
    case automatic
    /// Raw ioctls only; a device with no native format is refused.
    case native
    /// Always through libv4l2, which adds converted formats such as RGB24 and YU12 to any camera's.
    case libv4l2
}
