import CaptureKit
import Footage
import Foundation
import Positioning

/// Why footage's frames cannot be timed.
public enum FootageTimingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither the footage nor the timing states a frame rate (an MJPEG stream, a folder of
    /// JPEGs): the kind of footage, nil for frames without footage.
    case noFrameRate(kind: FootageInfo.Kind?)
    /// The start was to come from the footage's metadata, which has no capture time (a Y4M file
    /// or an MJPEG stream never has one; a video re-encoded or exported loses its own).
    /// `footage` is nil for frames alone, with no footage to read.
    case noMetadataTime(footage: String?, kind: FootageInfo.Kind?)
    /// The offset was to be found by matching the footage's own motion against the track, but
    /// the footage has no positions of its own (`footage`: its path, nil for frames alone), or
    /// there is no separate track to match them with (`hasTrack` false).
    case noMotionToMatch(footage: String?, hasTrack: Bool)
    /// The footage's own telemetry (`telemetry`: a DJI subtitle file without dates) is timed only
    /// from the video's start, and the footage states no start either: its positions follow the
    /// video, but nothing says when it was filmed (and a track's first fix is no time either).
    case undatedTelemetry(footage: String, telemetry: String)
    /// Matching the footage's motion against the track found no offset at all.
    case offsetNotFound(footage: String, TrackOffsetError)
    /// Matching found an offset that cannot be trusted (its `problem` says why).
    case offsetUncertain(footage: String, TrackOffsetEstimate)

    /// One line for the user, in the library's terms (a command line says which option fixes it).
    public var description: String {
        switch self {
        case .noFrameRate(let kind):
            "a frame rate is needed: \(kind.map { "\($0.rawValue) footage" } ?? "frames alone") state none"
        case .noMetadataTime(let footage, _):
            "\(footage ?? "frames without footage have no time, and") has no capture time in its metadata: give the "
                + "first frame's time, or ask for the track's first fix"
        case .noMotionToMatch(let footage?, false):
            "the offset cannot be found by matching motion: \(footage)'s own positions are the track; give a separate "
                + "track (a logger's, a phone's) to match them with"
        case .noMotionToMatch(let footage, _):
            "the offset cannot be found by matching motion: \(footage ?? "frames without footage") \(footage == nil ? "have" : "has") "
                + "no positions of its own (a GoPro's GPS): give the offset in seconds"
        case .undatedTelemetry(let footage, let telemetry):
            "\(telemetry) carries no date and time and \(footage) has no capture time in its metadata: its positions "
                + "follow the video's own timing, but nothing says when it was filmed; give the first frame's time"
        case .offsetNotFound(let footage, let error):
            "no offset found by matching \(footage)'s own positions with the track: \(error)"
        case .offsetUncertain(let footage, let estimate):
            String(
                format: "the offset found by matching %@'s own positions with the track, %+.1f s, is uncertain: %@; "
                    + "give the offset in seconds", footage, estimate.offset, estimate.problem ?? "")
        }
    }
}
