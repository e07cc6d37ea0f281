import CaptureKit
import Foundation
import GeoAR
import Positioning

/// `arcapture capture`'s options, parsed and validated.
struct CaptureOptions: Sendable {
    var devices: [String] = []
    var count: Int?
    var duration: Double?
    var every: Double?
    var destination: CaptureDestination
    var format = FormatRequest()
    var quality: Int
    var jpeg = JPEGOutputOptions()
    var controls: [ControlSetting] = []
    var warmUp: FrameSelector.WarmUp
    var reconnect = false
    var jsonLog: String?
    var location: LocationArgument?
    /// Where a CSV `--location` file's columns are (`--track-columns`).
    var trackColumns: CSVColumnMap?
    var bufferCount: UInt32
    var timeoutSeconds: Double
    var waitSeconds: Double

    static let defaultTemplate = "arcapture-%Y%m%d-%H%M%S-%L.jpg"

    static let device = CameraOptions.device.described(
        "The camera; several (comma-separated or repeated) make SIGUSR1 switch to the next.")
    static let count = Option.integer(
        "count", "N", in: 1...100_000_000, defaultText: "1 for a still", help: "How many frames to write.")
    static let duration = Option<Double>(
        "duration", "TIME", help: "Capture for this long (30s, 10m, 2h), by the frames' own timestamps."
    ) { text throws(UsageError) in
        guard let seconds = CaptureInterval.seconds(text) else {
            throw UsageError("--duration must be a time such as 30s, 10m or 2h, not '\(text)'")
        }
        return seconds
    }
    static let every = Option<Double>(
        "every", "INTERVAL",
        help: "Write one frame per interval (500ms, 10s, 1m) for a time-lapse, chosen by timestamp: no drift."
    ) { text throws(UsageError) in
        guard let seconds = CaptureInterval.seconds(text) else {
            throw UsageError("--every must be an interval such as 500ms, 10s or 1m, not '\(text)'")
        }
        return seconds
    }
    static let output = Option.text(
        "output", "TEMPLATE", default: defaultTemplate,
        help:
            "File names, with strftime tokens, %L for milliseconds and %n or %4n for the frame number; - for stdout; v4l2:/dev/videoN for a virtual camera (a v4l2loopback node)."
    )
    static let formatOut = Option.text(
        "format-out", "FORMAT", defaultText: "mjpeg; yuyv for v4l2:",
        help: "With --output -: mjpeg (concatenated JPEGs) or y4m; with v4l2:NODE: yuyv or mjpeg.")
    static let quality = JPEGOutputOptions.quality.described("JPEG quality, 1-100, for frames that must be encoded.")
    static let set = Option.text(
        "set", "NAME=VALUE",
        help: "Set a control (repeatable): brightness=60%, zoom_absolute=150, exposure_auto=manual.")
    static let skip = Option.integer("skip", "N", in: 0...10_000, help: "Drop the first N frames (warm-up).")
    static let settle = Flag("settle", help: "Drop frames until the brightness is stable (the default for a still).")
    static let reconnect = Flag(
        "reconnect", help: "When the camera goes away or stops sending, wait for it and resume.")
    static let jsonLog = Option.text(
        "json-log", "FILE", help: "Append one JSON line per written frame (and per interruption) to FILE.")
    static let location = Option<LocationArgument>(
        "location", "SOURCE", defaultText: "none",
        help: "Where the session's position comes from: \(LocationArgument.forms) (files replay in real time)."
    ) { text throws(UsageError) in try LocationArgument(parsing: text, option: "location") }

    /// The options only `capture` takes (which frames to write, and where): `serve` writes every
    /// frame to its clients.
    static let outputSpecs: [OptionSpec] = [
        count.spec, duration.spec, every.spec, output.spec, formatOut.spec,
    ]

    /// `capture`'s own options, in the order `--help` lists them (the overlay's follow).
    static let specs: [OptionSpec] =
        [device.spec] + outputSpecs + [quality.spec] + JPEGOutputOptions.specs + [
            set.spec, skip.spec, settle.spec, reconnect.spec, jsonLog.spec,
            CameraOptions.format.described("The pixel format to capture, such as YUYV or MJPG.").spec,
            CameraOptions.size.described("The frame size.").spec, CameraOptions.fps.described("The frame rate.").spec,
            CameraOptions.libv4l2.described("Capture through libv4l2's conversion layer.").spec,
            CameraOptions.buffers.spec,
            CameraOptions.timeout.described("How long a camera may send nothing before it counts as gone.").spec,
            CameraOptions.wait.described("Wait this long for an absent camera at the start.").spec, location.spec,
            TrackColumnsOption.option.described(
                "A CSV --location file's columns, by header name or number from 1 (time=Zeit,lat=Breite,lon=Länge; "
                    + "roles: \(CSVColumnMap.roles))."
            ).spec,
        ]

    /// The options `serve` takes of `capture`'s: all but which frames to write and the warm-up.
    static let serveSpecs: [OptionSpec] = specs.filter { option in
        !(outputSpecs + [skip.spec, settle.spec, jsonLog.spec]).contains { $0.name == option.name }
    }

    /// `capture`'s options, or `serve`'s when `broadcast` is given (the frames' destination, with
    /// no count, duration, interval, output or warm-up: a server runs until stopped).
    init(_ parsed: ParsedArguments, broadcast: FrameBroadcast? = nil) throws(UsageError) {
        devices = parsed.texts(Self.device).flatMap { $0.split(separator: ",").map(String.init) }
        if let broadcast {
            // `serve`: every frame to the clients, for as long as it runs.
            destination = .broadcast(broadcast)
            warmUp = .none
        } else {
            destination = .discard
            warmUp = .none
        }
        format = try CameraOptions.formatRequest(parsed)
        quality = try parsed.value(Self.quality)
        jpeg = try JPEGOutputOptions(parsed)
        for text in parsed.texts(Self.set) {
            guard let setting = ControlSetting(parsing: text) else {
                throw UsageError("--set must be NAME=VALUE such as brightness=60% or zoom_absolute=150, not '\(text)'")
            }
            controls.append(setting)
        }
        reconnect = parsed.isSet(Self.reconnect)
        jsonLog = parsed.textIfDeclared(Self.jsonLog)
        location = try parsed.value(Self.location)
        trackColumns = try parsed.value(TrackColumnsOption.option)
        if trackColumns != nil, location?.isRecorded != true {
            throw UsageError("--track-columns says where a CSV --location file's columns are; give the file")
        }
        bufferCount = UInt32(try parsed.value(CameraOptions.buffers))
        timeoutSeconds = try parsed.value(CameraOptions.timeout)
        waitSeconds = try parsed.value(CameraOptions.wait)
        if broadcast == nil { try parseOutput(parsed) }
    }

    /// The options that say which frames to write and where: count, duration, interval, output,
    /// stream format, warm-up.
    private mutating func parseOutput(_ parsed: ParsedArguments) throws(UsageError) {
        count = try parsed.value(Self.count)
        duration = try parsed.value(Self.duration)
        every = try parsed.value(Self.every)
        if count != nil && duration != nil { throw UsageError("--count and --duration are alternatives; give one") }
        let output = parsed.text(Self.output)
        let formatOut = parsed.text(Self.formatOut)?.lowercased()
        let camera: VirtualCameraTarget?
        do {
            try OutputURL.refuse(output, streamOptions: "--output - --format-out y4m", paced: true)
            camera = try VirtualCameraTarget(output: output, format: formatOut, formatOption: "--format-out")
        } catch {
            throw UsageError(error.description)
        }
        if let camera {
            destination = .virtualCamera(path: camera.path, encoding: camera.encoding)
        } else if output == "-" {
            switch formatOut {
            case nil, "mjpeg", "jpeg": destination = .mjpegStream
            case "y4m": destination = .y4mStream
            default: throw UsageError("--format-out must be mjpeg or y4m, not '\(formatOut ?? "")'")
            }
        } else {
            if let formatOut, formatOut != "jpeg" {
                throw UsageError("--format-out \(formatOut) is for streams: use it with --output -")
            }
            let template = OutputTemplate(pattern: output)
            let manyFrames = (count ?? 1) > 1 || duration != nil || every != nil
            if manyFrames && !template.variesPerFrame {
                throw UsageError(
                    "--output '\(output)' would give every frame the same name: add %n (the frame number) or %L (milliseconds)"
                )
            }
            destination = .files(template)
        }
        // A still (one file, no interval) waits for the exposure to settle, as fswebcam users expect.
        let isStill = count == nil && duration == nil && every == nil && output != "-" && camera == nil
        if isStill { count = 1 }
        if let skip = try parsed.value(Self.skip) {
            if parsed.isSet(Self.settle) { throw UsageError("--skip and --settle are alternatives; give one") }
            warmUp = skip == 0 ? .none : .skip(skip)
        } else if parsed.isSet(Self.settle) || isStill {
            warmUp = .settle(tolerance: 2, limit: 30)
        } else {
            warmUp = .none
        }
    }
}
