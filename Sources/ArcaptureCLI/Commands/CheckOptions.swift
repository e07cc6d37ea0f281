import CaptureKit
import Positioning

/// `arcapture check`'s options, parsed and validated.
struct CheckOptions: Equatable, Sendable {
    var devicePath: String?
    var frames = 30
    var format = FormatRequest()
    var bufferCount: UInt32 = 4
    var timeoutSeconds = 5.0
    var waitSeconds = 0.0
    var location: GeodeticCoordinate?
    var maxDrops = 0
    var fpsTolerancePercent = 10.0
    var streamTo: String?
    var json = false
    var junit: String?

    /// Reads the options from a parsed command line.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        devicePath = parsed.value("device")
        frames = try parsed.integer("frames", in: 2...100_000) ?? frames
        format = try parsed.formatRequest()
        bufferCount = UInt32(try parsed.integer("buffers", in: 1...32) ?? Int(bufferCount))
        timeoutSeconds = try parsed.number("timeout", in: 0.1...3600) ?? timeoutSeconds
        waitSeconds = try parsed.number("wait", in: 0...86_400) ?? waitSeconds
        location = try parsed.location()
        maxDrops = try parsed.integer("max-drops", in: 0...1_000_000) ?? maxDrops
        fpsTolerancePercent = try parsed.number("fps-tolerance", in: 0...100) ?? fpsTolerancePercent
        streamTo = parsed.value("stream-to")
        json = parsed.flag("json")
        junit = parsed.value("junit")
    }
}
