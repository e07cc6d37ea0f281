import CaptureKit
import Foundation
import GeoAR

/// `arcapture capture`'s options, parsed and validated.
struct CaptureOptions: Sendable {
    var devices: [String] = []
    var count: Int?
    var duration: Double?
    var every: Double?
    var destination: CaptureDestination
    var format = FormatRequest()
    var quality = 90
    var jpeg = JPEGOutputOptions()
    var controls: [ControlSetting] = []
    var warmUp: FrameSelector.WarmUp
    var reconnect = false
    var jsonLog: String?
    var location: LocationArgument?
    var bufferCount: UInt32 = 4
    var timeoutSeconds = 5.0
    var waitSeconds = 0.0

    static let defaultTemplate = "arcapture-%Y%m%d-%H%M%S-%L.jpg"

    /// `capture`'s options, or `serve`'s when `broadcast` is given (the frames' destination, with
    /// no count, duration, interval, output or warm-up: a server runs until stopped).
    init(_ parsed: ParsedArguments, broadcast: FrameBroadcast? = nil) throws(UsageError) {
        devices = (parsed.values["device"] ?? []).flatMap { $0.split(separator: ",").map(String.init) }
        if let broadcast {
            // `serve`: every frame to the clients, for as long as it runs.
            destination = .broadcast(broadcast)
            warmUp = .none
        } else {
            destination = .discard
            warmUp = .none
            try parseOutput(parsed)
        }
        format = try parsed.formatRequest()
        quality = try parsed.integer("quality", in: 1...100) ?? quality
        jpeg = try JPEGOutputOptions(parsed)
        for text in parsed.values["set"] ?? [] {
            guard let setting = ControlSetting(parsing: text) else {
                throw UsageError("--set must be NAME=VALUE such as brightness=60% or zoom_absolute=150, not '\(text)'")
            }
            controls.append(setting)
        }
        reconnect = parsed.flag("reconnect")
        jsonLog = parsed.value("json-log")
        location = try parsed.value("location").map { text throws(UsageError) in
            try LocationArgument(parsing: text, option: "location")
        }
        bufferCount = UInt32(try parsed.integer("buffers", in: 1...32) ?? Int(bufferCount))
        timeoutSeconds = try parsed.number("timeout", in: 0.1...3600) ?? timeoutSeconds
        waitSeconds = try parsed.number("wait", in: 0...86_400) ?? waitSeconds
    }

    /// The options that say which frames to write and where: count, duration, interval, output,
    /// stream format, warm-up.
    private mutating func parseOutput(_ parsed: ParsedArguments) throws(UsageError) {
        count = try parsed.integer("count", in: 1...100_000_000)
        if let text = parsed.value("duration") {
            guard let seconds = CaptureInterval.seconds(text) else {
                throw UsageError("--duration must be a time such as 30s, 10m or 2h, not '\(text)'")
            }
            duration = seconds
        }
        if let text = parsed.value("every") {
            guard let seconds = CaptureInterval.seconds(text) else {
                throw UsageError("--every must be an interval such as 500ms, 10s or 1m, not '\(text)'")
            }
            every = seconds
        }
        if count != nil && duration != nil { throw UsageError("--count and --duration are alternatives; give one") }
        let output = parsed.value("output") ?? Self.defaultTemplate
        let formatOut = parsed.value("format-out")?.lowercased()
        let camera: VirtualCameraTarget?
        do {
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
        if let skip = try parsed.integer("skip", in: 0...10_000) {
            if parsed.flag("settle") { throw UsageError("--skip and --settle are alternatives; give one") }
            warmUp = skip == 0 ? .none : .skip(skip)
        } else if parsed.flag("settle") || isStill {
            warmUp = .settle(tolerance: 2, limit: 30)
        } else {
            warmUp = .none
        }
    }
}
