/// A cheap structural check of a JPEG image: start and end markers and a plausible size.
///
/// Real webcams send truncated MJPEG frames when USB bandwidth runs short, and some pad frames with
/// zeros after the end marker. This check runs on every captured MJPEG frame before anything decodes
/// it (ustreamer does the same), so a damaged frame is dropped and counted instead of reaching a
/// decoder. A frame that passes may still fail to decode; `JPEGDecoder` catches that.
public enum JPEGStructure {
    /// What is wrong with a buffer that should hold one JPEG image.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// Fewer bytes than the smallest real JPEG.
        case tooSmall(Int)
        /// It does not start with the start-of-image marker (FF D8).
        case missingStartMarker
        /// It does not end with the end-of-image marker (FF D9): the frame was cut short.
        case missingEndMarker

        /// One phrase, such as `truncated JPEG (no end-of-image marker)`.
        public var description: String {
            switch self {
            case .tooSmall(let count): "JPEG too small (\(count) bytes)"
            case .missingStartMarker: "not a JPEG (no start-of-image marker)"
            case .missingEndMarker: "truncated JPEG (no end-of-image marker)"
            }
        }
    }

    /// The smallest size accepted: a baseline JPEG's required headers alone take more than this.
    public static let minimumSize = 125

    /// Checks `bytes`; returns nil when the structure is whole.
    public static func problem(in bytes: UnsafeRawBufferPointer) -> Problem? {
        guard bytes.count >= minimumSize else { return .tooSmall(bytes.count) }
        guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .missingStartMarker }
        var end = bytes.count
        while end > 2 && bytes[end - 1] == 0 { end -= 1 }  // zero padding after EOI
        guard bytes[end - 2] == 0xFF, bytes[end - 1] == 0xD9 else { return .missingEndMarker }
        return nil
    }

    /// The length of the image in a buffer whose structure is whole (`problem(in:)` is nil):
    /// up to and including its end marker, without the zero padding some drivers leave after it.
    public static func imageLength(in bytes: UnsafeRawBufferPointer) -> Int {
        var end = bytes.count
        while end > 2 && bytes[end - 1] == 0 { end -= 1 }
        return end
    }

    /// Checks `bytes`; returns nil when the structure is whole.
    public static func problem(in bytes: [UInt8]) -> Problem? {
        bytes.withUnsafeBytes { problem(in: $0) }
    }
}
