/// A V4L2 pixel format code: four ASCII characters packed little-endian into 32 bits.
///
/// Pixel formats are an open set (drivers add new ones), so this is a `RawRepresentable` struct. The
/// C headers build these codes with the `v4l2_fourcc` macro, which Swift cannot import; ``init(_:)``
/// does the same packing. A format whose bit 31 is set is the big-endian variant, shown with a `-BE`
/// suffix as v4l2-ctl does.
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral, Codable
{
    /// The packed code, as `v4l2_pix_format.pixelformat` holds it.
    public let rawValue: UInt32

    /// Wraps a packed code.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Packs a code of one to four ASCII characters; shorter codes are padded with spaces, as in
    /// `"Y10 "`. Returns nil for anything else, so user input can be checked.
    public init?(_ code: String) {
        let bytes = Array(code.utf8)
        guard (1...4).contains(bytes.count), bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return nil
        }
        let padded = bytes + Array(repeating: UInt8(ascii: " "), count: 4 - bytes.count)
        rawValue = padded.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    /// Creates a code from a literal in source code, such as `"YUYV"`.
    ///
    /// A literal that is not one to four ASCII characters is a programming error.
    public init(stringLiteral value: String) {
        guard let code = FourCC(value) else { preconditionFailure("'\(value)' is not a FourCC") }
        self = code
    }

    /// The four characters, trailing spaces removed, with `-BE` for a big-endian variant.
    public var description: String {
        let characters = (0..<4).map {
            Character(Unicode.Scalar(UInt8(truncatingIfNeeded: rawValue >> (8 * $0)) & 0x7F))
        }
        let name = String(characters).replacingTrailingSpaces()
        return rawValue & 0x8000_0000 != 0 ? name + "-BE" : name
    }

    /// Decodes from the four-character string (`"YUYV"`), the form ``description`` produces.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let code = FourCC(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a FourCC")
        }
        self = code
    }

    /// Encodes as the four-character string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Motion-JPEG: each buffer holds one JPEG image, what most USB webcams send at high resolutions.
    public static let mjpeg: FourCC = "MJPG"
    /// JPEG: the same as MJPEG for capture purposes (some drivers use this code).
    public static let jpeg: FourCC = "JPEG"
    /// Packed YCbCr 4:2:2 in the order Y0 Cb Y1 Cr, the uncompressed format every UVC webcam offers.
    public static let yuyv: FourCC = "YUYV"
    /// Packed YCbCr 4:2:2 in the order Cb Y0 Cr Y1.
    public static let uyvy: FourCC = "UYVY"
    /// Packed YCbCr 4:2:2 in the order Y0 Cr Y1 Cb.
    public static let yvyu: FourCC = "YVYU"
    /// Packed YCbCr 4:2:2 in the order Cr Y0 Cb Y1.
    public static let vyuy: FourCC = "VYUY"
    /// Planar YCbCr 4:2:0 (Y, then Cb, then Cr).
    public static let yuv420: FourCC = "YU12"
    /// Planar YCbCr 4:2:0 with Cr before Cb.
    public static let yvu420: FourCC = "YV12"
    /// Planar YCbCr 4:2:2.
    public static let yuv422p: FourCC = "422P"
    /// Semi-planar YCbCr 4:2:0: a Y plane, then interleaved Cb Cr.
    public static let nv12: FourCC = "NV12"
    /// Semi-planar YCbCr 4:2:0 with Cr before Cb.
    public static let nv21: FourCC = "NV21"
    /// Semi-planar YCbCr 4:2:2.
    public static let nv16: FourCC = "NV16"
    /// Semi-planar YCbCr 4:2:2 with Cr before Cb.
    public static let nv61: FourCC = "NV61"
    /// 8-bit greyscale.
    public static let grey: FourCC = "GREY"
    /// Packed 8-bit RGB.
    public static let rgb24: FourCC = "RGB3"
    /// Packed 8-bit BGR.
    public static let bgr24: FourCC = "BGR3"
    /// H.264 elementary stream.
    public static let h264: FourCC = "H264"
}

extension String {
    fileprivate func replacingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
