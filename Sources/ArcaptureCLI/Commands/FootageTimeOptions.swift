import CaptureKit
import Foundation

/// How frame times are found for recorded footage: `--start`, `--offset`, `--speed`, `--fps`.
struct FootageTimeOptions: Sendable {
    /// Where the first frame's time comes from.
    enum Start: Sendable, Equatable {
        /// The footage's metadata, else the track's first fix (the default).
        case automatic
        /// The footage's metadata; an error when it has none.
        case metadata
        /// The track's first fix.
        case firstFix
        /// A time the user gives.
        case given(Date)
    }

    var start: Start = .automatic

    /// The start time given with `--start TIME`, if one was.
    var explicitStart: Date? {
        if case .given(let date) = start { return date }
        return nil
    }
    var offset = 0.0
    var speed = 1.0
    var framesPerSecond: Double?

    static let specs: [OptionSpec] = [
        .value(
            "start", "TIME", default: "metadata, else first-fix",
            help: "The first frame's UTC time (ISO 8601), 'metadata' (the footage's EXIF time) or 'first-fix'."),
        .value(
            "offset", "SECONDS", default: "0",
            help: "Added to every frame time (positive: the camera clock was behind)."),
        .value("speed", "FACTOR", default: "1", help: "Real seconds per second of footage: 10 for a 10× time-lapse."),
        .value("fps", "N", help: "Frames per second (Y4M states its own; MJPEG and JPEG folders need it)."),
    ]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        if let text = parsed.value("start") {
            switch text {
            case "metadata": start = .metadata
            case "first-fix": start = .firstFix
            default:
                guard let date = UTCTime.parse(text) else {
                    throw UsageError(
                        "--start must be an ISO 8601 time such as 2020-12-18T06:16:00Z, 'metadata' or 'first-fix', not '\(text)'"
                    )
                }
                start = .given(date)
            }
        }
        offset = try parsed.number("offset", in: -1e9...1e9) ?? 0
        speed = try parsed.number("speed", in: 0.001...100_000) ?? 1
        framesPerSecond = try parsed.number("fps", in: 0.001...10_000)
    }

    /// The clock for footage described by `info` against `track`, and a phrase saying where its
    /// start came from.
    func clock(footage info: FootageInfo?, track: RecordedTrack) throws(UsageError) -> (FootageClock, String) {
        guard let rate = framesPerSecond ?? info?.framesPerSecond else {
            throw UsageError(
                "--fps is required: \(info.map { "\($0.kind.rawValue) footage" } ?? "--frames") states no frame rate")
        }
        let metadata = info?.metadataStart
        let first = track.fixes.first?.time ?? Date(timeIntervalSince1970: 0)
        let startTime: Date
        let origin: String
        switch start {
        case .given(let date):
            (startTime, origin) = (date, "--start")
        case .firstFix:
            (startTime, origin) = (first, "the track's first fix")
        case .metadata, .automatic:
            if let metadata {
                startTime = metadata.date
                origin =
                    info?.kind == .video
                    ? (info?.hasGPSClock == true
                        ? "the video's GPS clock (its GPMF telemetry)"
                        : "the video's creation_time (cameras often write local time there: check the overlap)")
                    : metadata.hasTimeZone
                        ? "the footage's EXIF time" : "the footage's EXIF time, which has no time zone: read as UTC"
            } else if start == .metadata {
                throw UsageError(
                    "--start metadata: \(info?.path ?? "the footage") has no capture time in its metadata; give --start TIME or first-fix"
                )
            } else {
                (startTime, origin) = (first, "the track's first fix (the footage has no time in its metadata)")
            }
        }
        return (FootageClock(start: startTime, framesPerSecond: rate, offset: offset, speed: speed), origin)
    }
}
