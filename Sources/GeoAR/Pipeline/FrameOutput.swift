import ArcaptureCore
import CaptureKit

/// One frame as a worker hands it to the writer.
public enum FrameOutput: Sendable {
    /// An encoded JPEG (annotated, or the input's own bytes passed through).
    case jpeg([UInt8])
    /// Planes, for Y4M output.
    case planes(YCbCrImage)
}
