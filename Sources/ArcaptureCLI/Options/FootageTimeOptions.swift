import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import GeoAR
import Positioning

/// How frame times are found for recorded footage: `--start`, `--offset`, `--speed`, `--fps`, read
/// into GeoAR's ``FootageTiming`` (which decides the clock) and its errors said in these flags.
struct FootageTimeOptions: Sendable {
    /// The timing the options give.
    var timing = FootageTiming()

    static let start = Option.text(
        "start", "TIME", defaultText: "metadata",
        help:
            "The first frame's time (ISO 8601; without a zone, UTC), 'metadata' (the footage's own: GPS clock, "
            + "container or EXIF time; refused when it has none) or 'first-fix' (the track's first fix).")
    static let offset = Option<FootageOffset>(
        "offset", "SECONDS|auto", defaultText: "0",
        help:
            "Added to every frame time (positive: the camera clock was behind), or 'auto': found by matching the "
            + "footage's own GPS with --track's (as 'arcapture sync' reports it)."
    ) { text throws(UsageError) in
        if text == "auto" { return .matched }
        guard let seconds = Double(text), seconds.isFinite, abs(seconds) <= 1e9 else {
            throw UsageError("--offset must be a number of seconds (such as 2.5 or -3600) or 'auto', not '\(text)'")
        }
        return .seconds(seconds)
    }
    static let speed = Option.number(
        "speed", "FACTOR", in: 0.001...100_000, default: 1,
        help: "Real seconds per second of footage: 10 for a 10× time-lapse.")
    static let fps = Option.number(
        "fps", "N", in: 0.001...10_000, help: "Frames per second (Y4M states its own; MJPEG and JPEG folders need it).")

    static let specs: [OptionSpec] = [start.spec, offset.spec, speed.spec, fps.spec]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        if let text = parsed.text(Self.start) {
            switch text {
            case "metadata": timing.start = .metadata
            case "first-fix": timing.start = .firstFix
            default:
                guard let date = UTCTime.parse(text) else {
                    throw UsageError(
                        "--start must be an ISO 8601 time such as 2020-12-18T06:16:00Z, 'metadata' or 'first-fix', not '\(text)'"
                    )
                }
                timing.start = .given(date)
            }
        }
        switch try parsed.value(Self.offset) {
        case .matched?: timing.findsOffset = true
        case .seconds(let seconds)?: timing.offset = seconds
        case nil: break
        }
        timing.speed = try parsed.value(Self.speed)
        timing.framesPerSecond = try parsed.value(Self.fps)
    }

    /// The clock for footage described by `info` against `track`, and a phrase saying where its
    /// start came from (`--start` when given).
    func clock(footage info: FootageInfo?, track: RecordedTrack) throws(UsageError) -> (FootageClock, String) {
        do {
            let (clock, origin) = try timing.clock(footage: info, track: track)
            return (clock, Self.phrase(origin))
        } catch {
            throw Self.usageError(error, suggestsSync: false)
        }
    }

    /// Where a clock came from, in the command line's words (`given`: the option that gave it).
    static func phrase(_ origin: ClockOrigin, given: String = "--start") -> String {
        switch origin {
        case .given: given
        case .firstFix: "the track's first fix (--start first-fix)"
        case .metadata: origin.description
        }
    }

    /// The one note a run gives about its time: the first frame's, where it came from, and the
    /// offset and speed applied; for photos posed by their geotags, each one's EXIF time; or that
    /// there is none (`given`: the option that gives one).
    static func note(_ prepared: PreparedFootageJob, given: String = "--start") -> String {
        if let clock = prepared.clock, let origin = prepared.clockOrigin {
            var note =
                "note: time: the first frame at \(UTCTime.format(clock.start)) from \(phrase(origin, given: given))"
            if let estimate = prepared.offsetEstimate {
                note +=
                    String(format: ", %+.1f s (--offset auto) ", estimate.offset)
                    + PreparedFootageJob.describe(estimate)
            } else if clock.offset != 0 {
                note += String(format: ", %+g s (--offset)", clock.offset)
            }
            if clock.speed != 1 { note += String(format: ", at %g× (--speed)", clock.speed) }
            return note
        }
        let info = prepared.info
        if let start = info.metadataStart {
            return info.kind == .jpegFolder && info.frameCount > 1
                ? "note: time: each photo's own; the first, \(UTCTime.format(start.date)), from \(start.source)"
                : "note: time: \(UTCTime.format(start.date)) from \(start.source)"
        }
        return "note: time: none (\(info.path) has none in its metadata): the banner's {time} and the sidecar's "
            + "times are empty; give \(given) TIME for them"
    }

    /// A timing error as the flags that fix it say it (`suggestsSync`: whether to point at `sync`,
    /// which a sync run itself should not).
    static func usageError(_ error: FootageTimingError, suggestsSync: Bool = true) -> UsageError {
        switch error {
        case .noFrameRate(let kind):
            UsageError("--fps is required: \(kind.map { "\($0.rawValue) footage" } ?? "--frames") states no frame rate")
        case .noMetadataTime(nil, _):
            UsageError(
                "--frames stands for footage with no time of its own: give --start TIME (the first frame's time, "
                    + "such as 2020-12-18T06:15:50Z) or --start first-fix")
        case .noMetadataTime(let footage?, let kind):
            UsageError(
                "\(footage) has no start time in its metadata"
                    + (kind == .video
                        ? " (a clip re-encoded or exported loses its creation_time)"
                        : kind == .y4m || kind == .mjpeg ? " (\(kind?.rawValue ?? "") footage never has one)" : "")
                    + ", so its frames cannot be placed on the track: give --start TIME (the first frame's time, "
                    + "such as 2020-12-18T06:15:50Z), or --start first-fix to take the track's first fix"
                    + (suggestsSync ? "; 'arcapture sync' shows how the footage and the track overlap" : ""))
        case .undatedTelemetry(let footage, let telemetry):
            UsageError(
                "\(telemetry) carries no date and time and \(footage) has no creation_time: its positions follow the "
                    + "video's own timing, but nothing says when it was filmed: give --start TIME (the first frame's "
                    + "time, such as 2020-12-18T06:15:50Z) for the banner's {time} and the sidecar's times")
        case .noMotionToMatch(let footage?, false):
            UsageError(
                "--offset auto matches the footage's own GPS with a separate track: give --track FILE (a logger's, "
                    + "a phone's), or --offset SECONDS (\(footage)'s own GPS, its own track, needs none)")
        case .noMotionToMatch(let footage, _):
            UsageError(
                "--offset auto needs footage with GPS of its own (a GoPro's) to match with the track: "
                    + "\(footage ?? "--frames") \(footage == nil ? "have" : "has") none; give --offset SECONDS")
        case .offsetNotFound(let footage, let error):
            UsageError(
                "--offset auto: no offset found by matching \(footage)'s own GPS with the track: \(error); "
                    + "give --offset SECONDS")
        case .offsetUncertain(let footage, let estimate):
            UsageError(
                String(
                    format: "--offset auto: the offset found by matching %@'s own GPS with the track, %+.1f s, is "
                        + "uncertain: %@; give --offset SECONDS", footage, estimate.offset, estimate.problem ?? "")
                    + (suggestsSync ? " ('arcapture sync' reports the match)" : ""))
        }
    }
}
