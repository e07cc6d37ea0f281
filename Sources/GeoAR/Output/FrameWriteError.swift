import CaptureKit
import Footage

/// Why a frame could not be written.
public enum FrameWriteError: Error, CustomStringConvertible, Sendable {
    /// The frame could not be made into a JPEG or planes (a damaged MJPEG frame): skip it.
    case conversion(FrameConversionError)
    /// The output failed: stop.
    case output(OutputError)
    /// The program reading stdout went away: stop quietly.
    case readerClosed
    /// A Y4M stream cannot change size or layout mid-stream (after a camera switch).
    case streamChanged(from: String, to: String)
    /// A video file could not be written (the encoder, the muxer or the disk failed).
    case video(VideoWriteError)

    /// The error in a user's words.
    public var description: String {
        switch self {
        case .conversion(let error): error.description
        case .output(let error): error.description
        case .readerClosed: "the program reading the stream closed it"
        case .video(let error): error.description
        case .streamChanged(let from, let to):
            "a Y4M stream cannot change from '\(from.dropLast())' to '\(to.dropLast())' (use MJPEG or files when switching cameras)"
        }
    }
}
