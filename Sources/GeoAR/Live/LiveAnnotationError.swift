import CaptureKit

/// Why a live frame could not be annotated.
enum LiveAnnotationError: Error {
    /// The frame is damaged: it is dropped and counted, as capture drops damaged frames.
    case frame(FrameConversionError)
    /// The overlay cannot be drawn as configured: the view fails.
    case configuration(String)
}
