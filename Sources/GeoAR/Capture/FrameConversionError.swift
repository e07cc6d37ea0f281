import CaptureKit
import JPEGKit

/// Why a captured frame cannot be turned into a `YCbCrImage`.
public enum FrameConversionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pixel format is not one CaptureKit lays out natively (capture through libv4l2 instead).
    case unsupportedPixelFormat(FourCC)
    /// The frame holds fewer bytes than its format needs.
    case short(expected: Int, received: Int)
    /// An MJPEG frame that does not decode.
    case undecodable(JPEGError)

    /// One line.
    public var description: String {
        switch self {
        case .unsupportedPixelFormat(let code):
            "pixel format \(code) cannot be converted to YCbCr (capture through libv4l2 to get a convertible format)"
        case .short(let expected, let received): "short frame: \(received) of \(expected) bytes"
        case .undecodable(let error): error.description
        }
    }
}
