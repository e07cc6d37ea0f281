import ARCompositor
import CaptureKit
import Footage
import Foundation
import Positioning

/// Footage that cannot meet its track at all: every frame on its clock falls outside the track's
/// time (a wrong start time, a camera clock a year off), so none would be annotated and the whole
/// footage would be written as it came. Found before any frame is read, so a program can refuse it
/// (`arcapture annotate` does, unless `--pass-through`).
public struct TrackMiss: Sendable, Equatable, CustomStringConvertible {
    /// The frames' times: the first to the last, or only the first when the count is an estimate.
    public var footage: ClosedRange<Date>
    /// The track's fixes' times.
    public var track: ClosedRange<Date>
    /// Whether ``footage`` spans every frame (the count was exact) rather than the first alone.
    public var spansEveryFrame: Bool

    /// The miss, or nil when some frame can have a pose (or that cannot be known).
    ///
    /// - Parameters:
    ///   - clock: the footage's clock.
    ///   - frames: the footage's frame count, 0 when unknown.
    ///   - exact: whether the count is exact (a Y4M file, a folder) rather than estimated from the
    ///     first frame's size (MJPEG): an estimate is only trusted to say the footage starts after
    ///     the track ends, since frames can be many more than it says.
    ///   - track: the track.
    ///   - limits: how far past the fixes a pose is extrapolated.
    public init?(clock: FootageClock, frames: Int, exact: Bool, track: RecordedTrack, limits: InterpolationLimits) {
        guard frames > 0, let span = track.timeSpan else { return nil }
        let first = clock.time(ofFrame: 0)
        let last = exact ? clock.time(ofFrame: frames - 1) : first
        let (earliest, latest) = (min(first, last), max(first, last))
        let reach = limits.maximumExtrapolation
        let before = exact && latest < span.lowerBound.addingTimeInterval(-reach)
        guard before || earliest > span.upperBound.addingTimeInterval(reach) else { return nil }
        footage = earliest...latest
        self.track = span
        spansEveryFrame = exact
    }

    /// `the footage's frames (A to B) all miss the track (C to D)`, or `the footage's first frame
    /// (A) comes after the track (C to D)`, in ISO 8601 UTC.
    public var description: String {
        let format = ISO8601DateFormatter()
        let times =
            spansEveryFrame
            ? "frames (\(format.string(from: footage.lowerBound)) to \(format.string(from: footage.upperBound))) all miss"
            : "first frame (\(format.string(from: footage.lowerBound))) comes after"
        return "the footage's \(times) the track (\(format.string(from: track.lowerBound)) to "
            + "\(format.string(from: track.upperBound)))"
    }
}
