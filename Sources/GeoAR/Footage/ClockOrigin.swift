import CaptureKit

/// Where footage's first-frame time came from: what a run says so that a user can tell a clock
/// that was read from one that was assumed.
public enum ClockOrigin: Sendable, Equatable, CustomStringConvertible {
    /// The program (the user) gave it.
    case given
    /// The track's first fix, as asked.
    case firstFix
    /// The track's first fix, because the footage's metadata has no time.
    case firstFixForLackOfMetadata
    /// A video's GPS clock (GoPro's GPMF telemetry).
    case gpsClock
    /// A video container's `creation_time`.
    case containerTime
    /// A JPEG's EXIF time, with or without a time zone.
    case exif(hasTimeZone: Bool)

    /// A phrase: `the video's GPS clock (its GPMF telemetry)`.
    public var description: String {
        switch self {
        case .given: "the start time given"
        case .firstFix: "the track's first fix"
        case .firstFixForLackOfMetadata: "the track's first fix (the footage has no time in its metadata)"
        case .gpsClock: "the video's GPS clock (its GPMF telemetry)"
        case .containerTime: "the video's creation_time (cameras often write local time there: check the overlap)"
        case .exif(hasTimeZone: true): "the footage's EXIF time"
        case .exif(hasTimeZone: false): "the footage's EXIF time, which has no time zone: read as UTC"
        }
    }
}
