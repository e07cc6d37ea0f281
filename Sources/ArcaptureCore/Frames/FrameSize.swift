/// A frame's width and height in pixels.
public struct FrameSize: Hashable, Sendable, Codable, CustomStringConvertible, Comparable {
    /// Width in pixels.
    public var width: UInt32
    /// Height in pixels.
    public var height: UInt32

    /// Creates a size.
    public init(width: UInt32, height: UInt32) {
        self.width = width
        self.height = height
    }

    /// Parses `WxH`, such as `1280x720`; returns nil for anything else, including a zero side.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = UInt32(parts[0]), let height = UInt32(parts[1]),
            width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }

    /// The number of pixels.
    public var area: UInt64 { UInt64(width) * UInt64(height) }

    /// `1280x720`.
    public var description: String { "\(width)x\(height)" }

    /// Orders by area, then width, so sorted lists read from small to large.
    public static func < (lhs: FrameSize, rhs: FrameSize) -> Bool {
        (lhs.area, lhs.width) < (rhs.area, rhs.width)
    }
}
