/// A colour with opacity, in sRGB as styles and users write it (`#e63946`, `#e6394680`).
public struct RGBAColor: Hashable, Sendable {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) … 255 (opaque).
    public var alpha: UInt8

    /// Creates a colour.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` optional); nil for anything else.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        if digits.count == 3 {
            digits = Substring(digits.map { "\($0)\($0)" }.joined())
        }
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else { return nil }
        let bytes = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(
            red: UInt8(bytes >> 24 & 0xFF), green: UInt8(bytes >> 16 & 0xFF), blue: UInt8(bytes >> 8 & 0xFF),
            alpha: UInt8(bytes & 0xFF))
    }

    /// The same colour with opacity `alpha` (0…1) multiplied in.
    public func withOpacity(_ opacity: Double) -> RGBAColor {
        var copy = self
        copy.alpha = UInt8((Double(alpha) * max(0, min(1, opacity))).rounded())
        return copy
    }

    /// Full-range BT.601 YCbCr, JPEG's colour model (what decoded frames hold):
    /// Y = 0.299 R + 0.587 G + 0.114 B; Cb = 128 − 0.168736 R − 0.331264 G + 0.5 B;
    /// Cr = 128 + 0.5 R − 0.418688 G − 0.081312 B. Unrounded, so blending loses nothing until the end.
    public var ycbcr: (y: Double, cb: Double, cr: Double) {
        let r = Double(red)
        let g = Double(green)
        let b = Double(blue)
        return (
            0.299 * r + 0.587 * g + 0.114 * b, 128 - 0.168_736 * r - 0.331_264 * g + 0.5 * b,
            128 + 0.5 * r - 0.418_688 * g - 0.081_312 * b
        )
    }

    /// The colour in `range`: ``ycbcr`` for full range; for limited range, Y scaled into 16–235 and
    /// Cb, Cr into 16–240 (BT.601's footroom and headroom).
    public func ycbcr(in range: SampleRange) -> (y: Double, cb: Double, cr: Double) {
        let (y, cb, cr) = ycbcr
        guard range == .limited else { return (y, cb, cr) }
        return (16 + y * 219 / 255, 128 + (cb - 128) * 224 / 255, 128 + (cr - 128) * 224 / 255)
    }

    /// The colour as one number, 0xRRGGBBAA.
    public var packed: UInt32 {
        UInt32(red) << 24 | UInt32(green) << 16 | UInt32(blue) << 8 | UInt32(alpha)
    }

    /// Opaque white.
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
}
