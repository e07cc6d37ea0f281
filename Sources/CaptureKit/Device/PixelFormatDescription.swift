/// One entry of a driver's format list, as `VIDIOC_ENUM_FMT` reports it.
public struct PixelFormatDescription: Hashable, Sendable {
    /// The format code.
    public var fourCC: FourCC
    /// The driver's human-readable name, such as "YUYV 4:2:2" or "Motion-JPEG".
    public var description: String
    /// Whether frames are compressed (MJPEG, H.264): their size varies frame to frame.
    public var isCompressed: Bool
    /// Whether libv4l2 emulates this format by converting from another (only on the libv4l2 path).
    public var isEmulated: Bool

    /// Creates a description.
    public init(fourCC: FourCC, description: String, isCompressed: Bool = false, isEmulated: Bool = false) {
        self.fourCC = fourCC
        self.description = description
        self.isCompressed = isCompressed
        self.isEmulated = isEmulated
    }
}
