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
        "start", "TIME", defaultText: "metadata, else first-fix",
        help: "The first frame's UTC time (ISO 8601), 'metadata' (the footage's EXIF time) or 'first-fix'.")
    static let offset = Option.number(
        "offset", "SECONDS", in: -1e9...1e9, default: 0,
        help: "Added to every frame time (positive: the camera clock was behind).")
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
        timing.offset = try parsed.value(Self.offset)
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
            throw Self.usageError(error)
        }
    }

    /// Where a clock came from, in the command line's words.
    static func phrase(_ origin: ClockOrigin) -> String {
        origin == .given ? "--start" : origin.description
    }

    /// A timing error as the flags that fix it say it.
    static func usageError(_ error: FootageTimingError) -> UsageError {
        switch error {
        case .noFrameRate(let kind):
            UsageError("--fps is required: \(kind.map { "\($0.rawValue) footage" } ?? "--frames") states no frame rate")
        case .noMetadataTime(let footage):
            UsageError(
                "--start metadata: \(footage) has no capture time in its metadata; give --start TIME or first-fix")
        }
    }
}
