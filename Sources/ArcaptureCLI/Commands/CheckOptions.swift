import CaptureKit
import Positioning

/// `arcapture check`'s options, parsed and validated.
struct CheckOptions: Equatable, Sendable {
    var devicePath: String?
    var frames: Int
    var format: FormatRequest
    var bufferCount: UInt32
    var timeoutSeconds: Double
    var waitSeconds: Double
    var location: GeodeticCoordinate?
    var maxDrops: Int
    var fpsTolerancePercent: Double
    var streamTo: String?
    var json = false
    var junit: String?
    var cycles = 3
    var allFormats = false
    var maxModes = 32

    static let device = CameraOptions.device.described(
        "The device node or a /dev/v4l/by-id or by-path link.",
        defaultText: "the first capture device found, else /dev/video0")
    static let frames = Option.integer(
        "frames", "N", in: 2...100_000, default: 30, help: "How many frames to stream (at least 2).")
    static let location = Option<GeodeticCoordinate>(
        "location", "LAT,LON[,ALT]", defaultText: "none",
        help: "A fixed position for the session; without it the check declares that it needs none."
    ) { text throws(UsageError) in
        guard let coordinate = GeodeticCoordinate(parsing: text) else {
            throw UsageError("--location must be LAT,LON or LAT,LON,ALT in degrees and metres, not '\(text)'")
        }
        return coordinate
    }
    static let maxDrops = Option.integer(
        "max-drops", "N", in: 0...1_000_000, default: 0,
        help: "Dropped frames (sequence gaps) allowed before the drops check fails.")
    static let fpsTolerance = Option.number(
        "fps-tolerance", "PERCENT", in: 0...100, default: 10,
        help: "How far below the applied rate the measured rate may be.")
    static let streamTo = Option.text(
        "stream-to", "FILE",
        help: "Write the valid frames, exactly as received and concatenated, to FILE (written atomically).")
    static let cycles = Option.integer(
        "cycles", "N", in: 0...100, default: 3,
        help:
            "After the stream, start and stop it N more times (each on a fresh open, to its first frame), then once stopped with every buffer queued, then closed and opened again; 0: none."
    )
    static let allFormats = Flag(
        "all-formats",
        help:
            "Before the stream, stream \(CheckModes.framesPerMode) frames at every mode the camera advertises (each format at each size, at its fastest rate; only --format's when given) and report each in a table."
    )
    static let maxModes = Option.integer(
        "max-modes", "N", in: 1...10_000, default: 32,
        help:
            "With --all-formats, try at most N modes (each bounded by --timeout): the largest size of every format first, then the smallest, then the rest."
    )
    static let json = Flag("json", help: "Print the report as JSON (schema arcapture.check/1, see docs/json.md).")
    static let junit = Option.text("junit", "FILE", help: "Also write the report as JUnit XML to FILE, for CI systems.")

    /// `check`'s options, in the order `--help` lists them.
    static let specs: [OptionSpec] = [
        device.spec, frames.spec, CameraOptions.format.spec, CameraOptions.size.spec, CameraOptions.fps.spec,
        CameraOptions.buffers.spec, CameraOptions.libv4l2.spec, CameraOptions.timeout.spec, CameraOptions.wait.spec,
        location.spec, maxDrops.spec, fpsTolerance.spec, cycles.spec, allFormats.spec, maxModes.spec, streamTo.spec,
        json.spec, junit.spec,
    ]

    /// Reads the options from a parsed command line.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        devicePath = parsed.text(Self.device)
        frames = try parsed.value(Self.frames)
        format = try CameraOptions.formatRequest(parsed)
        bufferCount = UInt32(try parsed.value(CameraOptions.buffers))
        timeoutSeconds = try parsed.value(CameraOptions.timeout)
        waitSeconds = try parsed.value(CameraOptions.wait)
        location = try parsed.value(Self.location)
        maxDrops = try parsed.value(Self.maxDrops)
        fpsTolerancePercent = try parsed.value(Self.fpsTolerance)
        streamTo = parsed.text(Self.streamTo)
        json = parsed.isSet(Self.json)
        junit = parsed.text(Self.junit)
        cycles = try parsed.value(Self.cycles)
        allFormats = parsed.isSet(Self.allFormats)
        maxModes = try parsed.value(Self.maxModes)
        if parsed.isGiven(Self.maxModes) && !allFormats {
            throw UsageError("--max-modes bounds --all-formats; give both, or neither")
        }
    }
}
