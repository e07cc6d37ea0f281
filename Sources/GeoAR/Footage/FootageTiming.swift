import CaptureKit
import Footage
import Foundation
import Positioning

/// How footage's frames are timed: where the first frame's time comes from, and the offset, speed
/// and rate that make every other frame's. The one place a footage job, `sync` and a footage view
/// decide a frame's time.
///
/// Frame *i* is taken at `start + i / fps × speed + offset` (a video's frames: at `start +
/// presentation time × speed + offset`), as `FootageClock` computes it.
public struct FootageTiming: Sendable, Equatable {
    /// Where the first frame's time comes from.
    public enum Start: Sendable, Equatable {
        /// The footage's metadata (a video's GPS clock, else its container time; a JPEG's EXIF
        /// time); footage without any is refused rather than aligned to a guess.
        case automatic
        /// The footage's metadata; an error when it has none (as ``automatic``: the two differ
        /// only in how a command line names them).
        case metadata
        /// The track's first fix: only when asked for, since a clip's first frame is seldom the
        /// track's.
        case firstFix
        /// This time.
        case given(Date)
    }

    /// Where the first frame's time comes from.
    public var start: Start
    /// Seconds added to every frame's time (positive: the camera's clock was behind).
    public var offset: Double
    /// Whether the offset is found by matching the footage's own motion (a GoPro's GPS) against
    /// the track, in place of ``offset`` (`--offset auto`): see ``matchedOffset(footage:path:clock:track:maximumGap:)``.
    public var findsOffset: Bool
    /// Real seconds per second of footage (10 for a 10× time-lapse).
    public var speed: Double
    /// Frames per second, when the footage states none or states it wrongly; nil: the footage's.
    public var framesPerSecond: Double?

    /// Creates a timing.
    public init(
        start: Start = .automatic, offset: Double = 0, findsOffset: Bool = false, speed: Double = 1,
        framesPerSecond: Double? = nil
    ) {
        self.start = start
        self.offset = offset
        self.findsOffset = findsOffset
        self.speed = speed
        self.framesPerSecond = framesPerSecond
    }

    /// The timing that gives exactly `clock`.
    public init(_ clock: FootageClock) {
        self.init(
            start: .given(clock.start), offset: clock.offset, speed: clock.speed, framesPerSecond: clock.framesPerSecond
        )
    }

    /// The start time given, if one was.
    public var givenStart: Date? {
        if case .given(let date) = start { return date }
        return nil
    }

    /// The clock for footage described by `info` (nil: frames alone, with no footage) against
    /// `track`, and where its start came from.
    ///
    /// - Throws: ``FootageTimingError`` when no frame rate is known, or the footage's metadata has
    ///   no time and none was given: a clip re-encoded or exported loses its `creation_time`, and
    ///   aligning it to the track's first fix would put every label in the wrong place.
    public func clock(footage info: FootageInfo?, track: RecordedTrack?) throws(FootageTimingError) -> (
        FootageClock, ClockOrigin
    ) {
        guard let rate = framesPerSecond ?? info?.framesPerSecond else {
            throw .noFrameRate(kind: info?.kind)
        }
        let startTime: Date
        let origin: ClockOrigin
        switch start {
        case .given(let date):
            (startTime, origin) = (date, .given)
        case .firstFix:
            (startTime, origin) = (track?.fixes.first?.time ?? Date(timeIntervalSince1970: 0), .firstFix)
        case .metadata, .automatic:
            guard let metadata = info?.metadataStart else {
                throw .noMetadataTime(footage: info?.path, kind: info?.kind)
            }
            (startTime, origin) = (metadata.date, .metadata(metadata.source))
        }
        return (FootageClock(start: startTime, framesPerSecond: rate, offset: offset, speed: speed), origin)
    }

    /// The offset that lines up the footage's own positions (`footage`: its telemetry) with
    /// `track`'s, the footage timed by `clock` (its start and speed; its offset is what is found,
    /// so the one it has is not used).
    ///
    /// The telemetry's fixes are put on the footage's clock first (a fix at presentation time *t*
    /// is at `clock.start + t × speed`), so the offset found is the one `clock` takes, whatever
    /// gave its start.
    ///
    /// - Parameters:
    ///   - footage: the footage's telemetry (nil when it has none).
    ///   - path: the footage's path, for messages.
    ///   - clock: the footage's clock (its offset is not used).
    ///   - track: the separate track to match.
    ///   - maximumGap: the longest time between two track fixes that is interpolated across.
    /// - Throws: ``FootageTimingError/noMotionToMatch(footage:hasTrack:)`` when the footage has no
    ///   positions of its own (or they have no time), ``FootageTimingError/offsetNotFound(footage:_:)``
    ///   when nothing matches.
    public func matchedOffset(
        footage: EmbeddedTelemetry.Reading?, path: String, clock: FootageClock, track: RecordedTrack,
        maximumGap: Double
    ) throws(FootageTimingError) -> TrackOffsetEstimate {
        guard let footage, let videoStart = footage.videoStart, !footage.track.fixes.isEmpty else {
            throw .noMotionToMatch(footage: path, hasTrack: true)
        }
        let positions = footage.track.fixes.map { fix in
            var fix = fix
            fix.time = clock.start.addingTimeInterval(fix.time.timeIntervalSince(videoStart) * clock.speed)
            return fix
        }
        do {
            return try TrackOffsetEstimate.matching(footage: positions, track: track.fixes, maximumGap: maximumGap)
        } catch {
            throw .offsetNotFound(footage: path, error)
        }
    }

    /// What matching the footage at `footage`'s own GPS (with the files that continue it,
    /// `chapters`, when its camera split the recording) with `track` gives, for a report that
    /// shows it whether or not it is applied: nil when there is nothing to match (no footage
    /// file, no GPS of its own, or its own GPS is the track: `isTrack`) and ``findsOffset`` is
    /// off; else the estimate, or why there is none.
    public func offsetMatch(
        footage: String?, chapters: [String] = [], isTrack: Bool, clock: FootageClock, track: RecordedTrack,
        maximumGap: Double
    ) -> Result<TrackOffsetEstimate, FootageTimingError>? {
        guard let footage, !isTrack else {
            return findsOffset ? .failure(.noMotionToMatch(footage: footage, hasTrack: footage == nil)) : nil
        }
        let files = [footage] + chapters
        guard files.contains(where: EmbeddedTelemetry.hasTelemetry),
            let reading = try? EmbeddedTelemetry.read(chapters: files)
        else {
            return findsOffset ? .failure(.noMotionToMatch(footage: footage, hasTrack: true)) : nil
        }
        do {
            return .success(
                try matchedOffset(footage: reading, path: footage, clock: clock, track: track, maximumGap: maximumGap))
        } catch {
            return .failure(error)
        }
    }
}
