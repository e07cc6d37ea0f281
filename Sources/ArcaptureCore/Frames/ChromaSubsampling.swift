/// How a YCbCr image's chroma planes are sampled relative to its luma plane.
///
/// Frames stay in their native layout through the pipeline: 4:2:2 from a webcam's YUYV or MJPEG,
/// 4:2:0 from most video files. Chroma planes round up: a 4:2:0 image 641 pixels wide has chroma
/// planes 321 wide, as libjpeg-turbo lays them out.
public enum ChromaSubsampling: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Full-resolution chroma.
    case s444 = "4:4:4"
    /// Half horizontal chroma resolution (USB webcams).
    case s422 = "4:2:2"
    /// Half horizontal and half vertical chroma resolution (most video).
    case s420 = "4:2:0"
    /// Half vertical chroma resolution.
    case s440 = "4:4:0"
    /// Quarter horizontal chroma resolution.
    case s411 = "4:1:1"
    /// Luma only.
    case gray

    /// Luma pixels per chroma sample horizontally.
    public var horizontalFactor: Int {
        switch self {
        case .s444, .s440, .gray: 1
        case .s422, .s420: 2
        case .s411: 4
        }
    }

    /// Luma rows per chroma row.
    public var verticalFactor: Int {
        switch self {
        case .s420, .s440: 2
        default: 1
        }
    }

    /// The number of planes: 1 for ``gray``, else 3.
    public var planeCount: Int { self == .gray ? 1 : 3 }

    /// `4:2:2`, or `gray`.
    public var description: String { rawValue }

    /// Parses `444`, `4:2:2`, `420`, `gray`, …
    public init?(parsing text: String) {
        let compact = text.filter { $0 != ":" }.lowercased()
        switch compact {
        case "444": self = .s444
        case "422": self = .s422
        case "420": self = .s420
        case "440": self = .s440
        case "411": self = .s411
        case "gray", "grey", "400": self = .gray
        default: return nil
        }
    }
}
