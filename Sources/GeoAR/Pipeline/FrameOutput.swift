import ArcaptureCore
import CaptureKit
import Footage

/// One frame as a worker hands it to the writer.
public enum FrameOutput: Sendable {
    /// An encoded JPEG (annotated, or the input's own bytes passed through).
    case jpeg([UInt8])
    /// Planes, for Y4M output.
    case planes(YCbCrImage)
    /// An overlay frame (drawing and alpha) laid out for its video encoder.
    case picture(VideoPicture)
    /// An overlay frame as a PNG file's bytes.
    case png([UInt8])
}
