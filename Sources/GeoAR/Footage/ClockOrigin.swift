import ArcaptureCore

/// Where footage's first-frame time came from: what a run says so that a user can tell a clock
/// that was read from one that was assumed.
public enum ClockOrigin: Sendable, Equatable, CustomStringConvertible {
    /// The program (the user) gave it.
    case given
    /// The track's first fix, as asked.
    case firstFix
    /// The footage's own metadata: a video's GPS clock or container time, a JPEG's EXIF time.
    case metadata(CaptureTimeSource)

    /// A phrase: `the video's GPS clock (its GPMF telemetry)`.
    public var description: String {
        switch self {
        case .given: "the start time given"
        case .firstFix: "the track's first fix, as asked"
        case .metadata(let source): source.description
        }
    }
}
