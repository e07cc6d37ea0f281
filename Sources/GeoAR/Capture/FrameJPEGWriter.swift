import ArcaptureCore
import CaptureKit
import JPEGKit

/// Turns captured frames into JPEG files' bytes: an MJPEG frame passes through without re-encoding
/// (checked first, and completed with the standard Huffman tables when the camera left them out); a
/// raw frame is converted to planes and encoded at the requested quality.
///
/// One writer keeps its codec handles across frames; it is not `Sendable` (one per thread).
public final class FrameJPEGWriter {
    private let decoder: JPEGDecoder
    private let encoder: JPEGEncoder

    /// Creates a writer.
    ///
    /// - Throws: `JPEGError/handleUnavailable` when libjpeg-turbo cannot allocate.
    public init() throws(JPEGError) {
        decoder = try JPEGDecoder()
        encoder = try JPEGEncoder()
    }

    /// Encodes planes (a frame drawn on) as a JPEG without restart markers.
    ///
    /// - Throws: `JPEGError/encodingFailed(_:)`.
    public func encode(_ image: YCbCrImage, quality: Int) throws(JPEGError) -> [UInt8] {
        try encoder.encode(image, quality: quality)
    }

    /// How thoroughly an MJPEG frame is checked before it passes through.
    public enum Validation: Sendable {
        /// Start and end markers and the header: cheap enough for every frame of a live stream.
        case structure
        /// A full decode as well, which also catches damage inside the image data (bit errors on
        /// the cable): for stills and time-lapses, where one bad file matters more than the time.
        case decode
    }

    /// The JPEG for `frame`, and whether it passed through unchanged (apart from Huffman tables).
    ///
    /// - Parameters:
    ///   - frame: a captured frame.
    ///   - quality: 1–100, for raw frames.
    ///   - validation: how to check an MJPEG frame before passing it through.
    ///   - restartRows: MCU rows per restart interval in raw frames encoded (0: no markers).
    /// - Throws: ``FrameConversionError`` for a damaged MJPEG frame or an unconvertible format.
    public func jpeg(for frame: VideoFrame, quality: Int, validation: Validation = .structure, restartRows: Int = 0)
        throws(FrameConversionError) -> (bytes: [UInt8], passedThrough: Bool)
    {
        switch frame.format.pixelFormat {
        case .mjpeg, .jpeg:
            if let problem = JPEGStructure.problem(in: frame.data) {
                throw .undecodable(.corrupt(problem.description))
            }
            let read = frame.data.withUnsafeBytes { bytes in
                Result { () throws(JPEGError) in try decoder.readHeader(bytes) }
            }
            let header: JPEGHeader
            switch read {
            case .success(let value): header = value
            case .failure(let error): throw .undecodable(error)
            }
            guard header.width == Int(frame.format.width), header.height == Int(frame.format.height) else {
                throw .undecodable(
                    .invalidHeader("the frame is \(header.width)x\(header.height), the stream \(frame.format.size)"))
            }
            if validation == .decode {
                do {
                    _ = try decoder.decode(frame.data)
                } catch {
                    throw .undecodable(error)
                }
            }
            return (JPEGStructure.insertingStandardHuffmanTables(into: frame.data), true)
        default:
            let image = try YCbCrImage(frame: frame, decoder: decoder)
            do {
                return (try encoder.encode(image, quality: quality, restartRows: restartRows), false)
            } catch {
                throw .undecodable(error)
            }
        }
    }

    /// Converts `frame` into `image`'s storage (decoding MJPEG), reusing its planes when they fit.
    public func convert(_ frame: VideoFrame, into image: inout YCbCrImage) throws(FrameConversionError) {
        try image.replace(with: frame, decoder: decoder)
    }

    /// The planes of `frame` (decoding MJPEG), for drawing or a Y4M stream.
    public func image(for frame: VideoFrame) throws(FrameConversionError) -> YCbCrImage {
        try YCbCrImage(frame: frame, decoder: decoder)
    }
}
