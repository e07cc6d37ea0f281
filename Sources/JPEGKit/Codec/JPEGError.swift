/// Why a JPEG could not be read or written.
public enum JPEGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// libjpeg-turbo could not create a codec handle (out of memory).
    case handleUnavailable
    /// The data is not a JPEG, or its header is damaged.
    case invalidHeader(String)
    /// The image uses a colour space arcapture does not process (CMYK, YCCK or RGB-coded JPEG).
    case unsupportedColorspace(String)
    /// The image data is corrupt or truncated.
    case corrupt(String)
    /// Encoding failed.
    case encodingFailed(String)

    /// One line: `corrupt JPEG: Premature end of JPEG file`.
    public var description: String {
        switch self {
        case .handleUnavailable: "cannot create a libjpeg-turbo handle"
        case .invalidHeader(let message): "not a readable JPEG: \(message)"
        case .unsupportedColorspace(let name): "unsupported JPEG colour space: \(name)"
        case .corrupt(let message): "corrupt JPEG: \(message)"
        case .encodingFailed(let message): "JPEG encoding failed: \(message)"
        }
    }
}
