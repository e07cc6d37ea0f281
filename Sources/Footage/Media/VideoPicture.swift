/// A picture laid out as an encoder takes it, planes and all: what an overlay-only output (drawing
/// with alpha, for an editor) hands to ``VideoFileWriter`` or ``PNGFrameEncoder``, made by the
/// worker that drew it (the conversion runs in parallel; the writer only copies rows).
public struct VideoPicture: Sendable {
    /// How the samples are laid out.
    public enum Layout: Sendable, Equatable {
        /// Y, Cb, Cr and alpha, each a full-size plane of 16-bit little-endian samples holding
        /// 10-bit values, limited range (what ProRes 4444 takes).
        case yuva444p10
        /// Y and alpha full size, Cb and Cr at half width and height, 8-bit, limited range (VP9
        /// with alpha).
        case yuva420p
        /// One plane of alpha, red, green, blue bytes per pixel (QuickTime Animation).
        case argb
        /// One plane of red, green, blue, alpha bytes per pixel (PNG).
        case rgba

        /// The planes' sizes in samples (width, height) and bytes per sample, for a picture of
        /// `width` × `height`.
        public func planes(width: Int, height: Int) -> [(width: Int, height: Int, bytesPerSample: Int)] {
            switch self {
            case .yuva444p10: Array(repeating: (width, height, 2), count: 4)
            case .yuva420p:
                [
                    (width, height, 1), ((width + 1) / 2, (height + 1) / 2, 1), ((width + 1) / 2, (height + 1) / 2, 1),
                    (width, height, 1),
                ]
            case .argb, .rgba: [(width, height, 4)]
            }
        }
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The layout of ``planes``.
    public var layout: Layout
    /// The planes in the layout's order, each row after row with no padding.
    public var planes: [[UInt8]]

    /// A picture of `width` × `height` in `layout`, every sample zero (transparent).
    public init(width: Int, height: Int, layout: Layout) {
        self.width = width
        self.height = height
        self.layout = layout
        planes = layout.planes(width: width, height: height).map {
            [UInt8](repeating: 0, count: $0.width * $0.height * $0.bytesPerSample)
        }
    }

    /// Bytes per row of plane `index`.
    public func rowBytes(ofPlane index: Int) -> Int {
        let plane = layout.planes(width: width, height: height)[index]
        return plane.width * plane.bytesPerSample
    }
}
