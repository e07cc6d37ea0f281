/// A pixel format a device offers, with every frame size and the frame intervals at each size.
public struct SupportedFormat: Hashable, Sendable {
    /// The format as the driver lists it.
    public var pixelFormat: PixelFormatDescription
    /// The frame sizes; empty when the driver does not implement `VIDIOC_ENUM_FRAMESIZES` (then the
    /// size is whatever `VIDIOC_S_FMT` accepts).
    public var frameSizes: [SupportedFrameSize]

    /// Creates a format entry.
    public init(pixelFormat: PixelFormatDescription, frameSizes: [SupportedFrameSize]) {
        self.pixelFormat = pixelFormat
        self.frameSizes = frameSizes
    }

    /// The format code.
    public var fourCC: FourCC { pixelFormat.fourCC }
}

/// A frame size, or range of sizes, with the frame intervals the driver offers there.
public struct SupportedFrameSize: Hashable, Sendable {
    /// The size or range.
    public var sizes: FrameSizeRange
    /// The intervals at this size (for a range: at its largest size), or nil when the driver does not
    /// implement `VIDIOC_ENUM_FRAMEINTERVALS`.
    public var frameIntervals: FrameIntervalRange?

    /// Creates an entry.
    public init(sizes: FrameSizeRange, frameIntervals: FrameIntervalRange?) {
        self.sizes = sizes
        self.frameIntervals = frameIntervals
    }
}
