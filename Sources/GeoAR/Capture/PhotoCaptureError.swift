import CaptureKit

/// Why a ``PhotoOutput`` could not deliver a photo.
public enum PhotoCaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The frame could not be made into a JPEG.
    case conversion(FrameConversionError)
    /// The session stopped (or failed) before a frame arrived.
    case sessionStopped(CaptureError?)
    /// The output is not attached to a session.
    case notAttached

    /// One line.
    public var description: String {
        switch self {
        case .conversion(let error): error.description
        case .sessionStopped(let error): "the capture session stopped" + (error.map { ": \($0.reason)" } ?? "")
        case .notAttached: "the photo output is not attached to a session (CaptureSession.addOutput)"
        }
    }
}
