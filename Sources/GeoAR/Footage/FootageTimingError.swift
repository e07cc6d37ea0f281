import CaptureKit
import Footage

/// Why footage's frames cannot be timed.
public enum FootageTimingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither the footage nor the timing states a frame rate (an MJPEG stream, a folder of
    /// JPEGs): the kind of footage, nil for frames without footage.
    case noFrameRate(kind: FootageInfo.Kind?)
    /// The start was to come from the footage's metadata, which has no capture time (a Y4M file
    /// or an MJPEG stream never has one; a video re-encoded or exported loses its own).
    /// `footage` is nil for frames alone, with no footage to read.
    case noMetadataTime(footage: String?, kind: FootageInfo.Kind?)

    /// One line for the user, in the library's terms (a command line says which option fixes it).
    public var description: String {
        switch self {
        case .noFrameRate(let kind):
            "a frame rate is needed: \(kind.map { "\($0.rawValue) footage" } ?? "frames alone") state none"
        case .noMetadataTime(let footage, _):
            "\(footage ?? "frames without footage have no time, and") has no capture time in its metadata: give the "
                + "first frame's time, or ask for the track's first fix"
        }
    }
}
