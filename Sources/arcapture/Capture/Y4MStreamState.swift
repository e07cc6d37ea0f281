import CaptureKit

/// A YUV4MPEG2 stream being written: the header goes out before the first frame, and every later
/// frame must match it (a Y4M stream cannot change size or layout).
struct Y4MStreamState {
    private var header: String?

    /// The bytes for the next frame: the stream header first if this is the first frame, then the
    /// `FRAME` line and the planes. Layouts YUV4MPEG2 lacks (4:4:0, 4:1:1) go out as 4:4:4.
    ///
    /// - Parameter makeHeader: the header line for the frame as it will be written.
    /// - Throws: ``CaptureWriteError/streamChanged(from:to:)`` when the frame does not match the stream.
    mutating func bytes(for frame: YCbCrImage, makeHeader: (YCbCrImage) -> String) throws(CaptureWriteError)
        -> [UInt8]
    {
        var image = frame
        if image.subsampling == .s440 || image.subsampling == .s411 { image = image.resampled(to: .s444) }
        let line = makeHeader(image)
        var bytes: [UInt8] = []
        if let header {
            guard header == line else { throw .streamChanged(from: header, to: line) }
        } else {
            header = line
            bytes += Array(line.utf8)
        }
        return bytes + CaptureOutputWriter.y4mFrame(image)
    }
}
