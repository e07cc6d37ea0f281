import ArcaptureCore

/// A negotiated capture format: what `VIDIOC_G_FMT` or `VIDIOC_S_FMT` reports the driver applied.
///
/// Planes are modelled from the start: a single-planar format has one plane whose fields repeat
/// ``bytesPerLine`` and ``sizeImage``; a multi-planar one has one entry per memory plane.
public struct V4L2Format: Hashable, Sendable {
    /// The pixel format.
    public var pixelFormat: FourCC
    /// Frame width in pixels.
    public var width: UInt32
    /// Frame height in pixels.
    public var height: UInt32
    /// The field order (`V4L2_FIELD_*`); 1 (`NONE`) for progressive frames.
    public var field: UInt32
    /// Bytes per line of the first plane, padding included (0 for compressed formats).
    public var bytesPerLine: UInt32
    /// The buffer size the driver needs for a frame (for compressed formats: the largest frame).
    public var sizeImage: UInt32
    /// The colour space (`V4L2_COLORSPACE_*`).
    public var colorspace: UInt32
    /// The quantization (`V4L2_QUANTIZATION_*`): 0 the default for the colour space, 1 full range,
    /// 2 limited range.
    public var quantization: UInt32
    /// Whether this is a multi-planar format.
    public var isMultiplanar: Bool
    /// The memory planes.
    public var planes: [PlaneFormat]

    /// Creates a single-planar format.
    public init(
        pixelFormat: FourCC, width: UInt32, height: UInt32, field: UInt32 = 1, bytesPerLine: UInt32 = 0,
        sizeImage: UInt32 = 0, colorspace: UInt32 = 0, quantization: UInt32 = 0
    ) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.field = field
        self.bytesPerLine = bytesPerLine
        self.sizeImage = sizeImage
        self.colorspace = colorspace
        self.quantization = quantization
        self.isMultiplanar = false
        self.planes = [PlaneFormat(bytesPerLine: bytesPerLine, sizeImage: sizeImage)]
    }

    /// The frame size.
    public var size: FrameSize { FrameSize(width: width, height: height) }

    /// Whether Y'CbCr samples use the full 0–255 range rather than video's limited 16–235 (luma) and
    /// 16–240 (chroma). V4L2's default is limited range for Y'CbCr, except in the JPEG colour space.
    public var isFullRange: Bool {
        switch quantization {
        case 1: true
        case 2: false
        default: colorspace == 7  // V4L2_COLORSPACE_JPEG
        }
    }
}

/// One memory plane of a format.
public struct PlaneFormat: Hashable, Sendable {
    /// Bytes per line, padding included.
    public var bytesPerLine: UInt32
    /// Bytes per frame in this plane.
    public var sizeImage: UInt32

    /// Creates a plane description.
    public init(bytesPerLine: UInt32, sizeImage: UInt32) {
        self.bytesPerLine = bytesPerLine
        self.sizeImage = sizeImage
    }
}
