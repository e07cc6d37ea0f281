import ArcaptureCore
import CaptureKit
import Positioning

/// The options every command that opens a camera takes (`check`, `capture`, `serve`), declared
/// once; each command lists them in its help, some in its own words.
enum CameraOptions {
    static let device = Option.text(
        "device", "PATH", defaultText: "the first capture device found",
        help: "The device node or a /dev/v4l/by-id or by-path link.")
    static let format = Option.text(
        "format", "FOURCC", defaultText: "auto",
        help: "The pixel format, such as YUYV or MJPG; 'auto' picks the best for the size and rate.")
    static let size = Option<FrameSize>(
        "size", "WxH", defaultText: "the driver's current size", help: "The frame size, such as 1280x720."
    ) { text throws(UsageError) in
        guard let size = FrameSize(parsing: text) else {
            throw UsageError("--size must be WIDTHxHEIGHT such as 1280x720, not '\(text)'")
        }
        return size
    }
    static let fps = Option.number(
        "fps", "N", in: 0.01...1000, defaultText: "the fastest offered up to 30", help: "The frame rate to request.")
    static let libv4l2 = Flag("libv4l2", help: "Capture through libv4l2's conversion layer instead of raw ioctls.")
    static let buffers = Option.integer(
        "buffers", "N", in: 1...32, default: 4, help: "How many mmap buffers to request.")
    static let timeout = Option.number(
        "timeout", "SECONDS", in: 0.1...3600, default: 5, help: "Fail when no frame arrives for this long.")
    static let wait = Option.number(
        "wait", "SECONDS", in: 0...86_400, default: 0,
        help: "Wait this long for an absent device to appear (a camera being plugged in).")

    /// `--format`, `--size`, `--fps` and `--libv4l2` as a format request.
    static func formatRequest(_ parsed: ParsedArguments) throws(UsageError) -> FormatRequest {
        var request = FormatRequest()
        if let text = parsed.text(format), text.lowercased() != "auto" {
            guard let code = FourCC(text) else {
                throw UsageError("--format must be a FourCC such as YUYV or MJPG, or 'auto', not '\(text)'")
            }
            request.pixelFormat = code
        }
        request.size = try parsed.value(size)
        request.framesPerSecond = try parsed.value(fps)
        if parsed.isSet(libv4l2) { request.conversion = .libv4l2 }
        return request
    }
}
