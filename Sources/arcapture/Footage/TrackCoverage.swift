import ARCompositor
import CaptureKit
import Foundation

/// Whether footage on its clock meets a track at all: footage whose frames all fall outside the
/// track's time (a wrong `--start`, a camera clock a year off) would be written unannotated, every
/// frame, so `annotate` refuses it before any work and says both spans.
enum TrackCoverage {
    /// Why no frame of `frames` on `clock` can have a pose from `track`, or nil when some can.
    ///
    /// - Parameters:
    ///   - frames: the footage's frame count, 0 when unknown.
    ///   - exact: whether the count is exact (a Y4M file, a folder) rather than estimated from the
    ///     first frame's size (MJPEG): an estimate is only trusted to say the footage starts after
    ///     the track ends, since frames can be many more than it says.
    static func miss(
        clock: FootageClock, frames: Int, exact: Bool, track: RecordedTrack, limits: InterpolationLimits
    ) -> String? {
        guard frames > 0, let span = track.timeSpan else { return nil }
        let first = clock.time(ofFrame: 0)
        let last = exact ? clock.time(ofFrame: frames - 1) : first
        let (earliest, latest) = (min(first, last), max(first, last))
        let reach = limits.maximumExtrapolation
        let before = exact && latest < span.lowerBound.addingTimeInterval(-reach)
        guard before || earliest > span.upperBound.addingTimeInterval(reach) else { return nil }
        let format = ISO8601DateFormatter()
        let times =
            exact
            ? "frames (\(format.string(from: earliest)) to \(format.string(from: latest))) all miss"
            : "first frame (\(format.string(from: first))) comes after"
        return "the footage's \(times) the track (\(format.string(from: span.lowerBound)) to "
            + "\(format.string(from: span.upperBound))), so none would be annotated: check --start and --offset "
            + "('arcapture sync' finds the offset), or add --pass-through to write them unannotated"
    }
}
