import ArcaptureCore
import CaptureKit

/// A YUV4MPEG2 stream being written: the header goes out before the first frame, and every later
/// frame must match it (a Y4M stream cannot change size or layout).
public struct Y4MStreamState: Sendable {
    private var header: String?

    /// A stream with nothing written yet.
    public init() {}

    /// The bytes for the next frame: the stream header first if this is the first frame, then the
    /// `FRAME` line and the planes. Layouts YUV4MPEG2 lacks (4:4:0, 4:1:1) go out as 4:4:4.
    ///
    /// - Parameters:
    ///   - frame: the frame's planes.
    ///   - makeHeader: the header line for the frame as it will be written.
    /// - Throws: ``FrameWriteError/streamChanged(from:to:)`` when the frame does not match the stream.
    public mutating func bytes(for frame: YCbCrImage, makeHeader: (YCbCrImage) -> String) throws(FrameWriteError)
        -> [UInt8]
    {
        let image = Self.writable(frame)
        return try header(for: image, makeHeader: makeHeader) + CaptureOutputWriter.y4mFrame(image)
    }

    /// The stream header line for frames like `image` (already ``writable(_:)``): size, rate,
    /// layout, and the samples' range (ffmpeg reads `XCOLORRANGE`).
    public static func headerLine(
        for image: YCbCrImage, rate: (numerator: Int, denominator: Int), fullRange: Bool
    ) -> String {
        let layout =
            switch image.subsampling {
            case .s420: "C420jpeg"
            case .s422: "C422"
            case .gray: "Cmono"
            default: "C444"
            }
        return "YUV4MPEG2 W\(image.width) H\(image.height) F\(rate.numerator):\(rate.denominator) Ip A1:1 \(layout) "
            + "XCOLORRANGE=\(fullRange ? "FULL" : "LIMITED")\n"
    }

    /// The image as YUV4MPEG2 can carry it: 4:4:0 and 4:1:1 become 4:4:4, others stay as they are.
    public static func writable(_ frame: YCbCrImage) -> YCbCrImage {
        frame.subsampling == .s440 || frame.subsampling == .s411 ? frame.resampled(to: .s444) : frame
    }

    /// The stream header's bytes if `image` (already ``writable(_:)``) is the first frame, else none,
    /// after checking that it matches the stream.
    ///
    /// - Throws: ``FrameWriteError/streamChanged(from:to:)`` when the frame does not match the stream.
    public mutating func header(for image: YCbCrImage, makeHeader: (YCbCrImage) -> String) throws(FrameWriteError)
        -> [UInt8]
    {
        let line = makeHeader(image)
        if let header {
            guard header == line else { throw .streamChanged(from: header, to: line) }
            return []
        }
        header = line
        return Array(line.utf8)
    }
}
