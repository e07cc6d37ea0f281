import ArcaptureCore
import CaptureKit
import Positioning

extension ParsedArguments {
    /// `--format`, `--size`, `--fps` and `--libv4l2`, the options every command that opens a camera
    /// takes, as a format request.
    func formatRequest() throws(UsageError) -> FormatRequest {
        var format = FormatRequest()
        if let text = value("format"), text.lowercased() != "auto" {
            guard let code = FourCC(text) else {
                throw UsageError("--format must be a FourCC such as YUYV or MJPG, or 'auto', not '\(text)'")
            }
            format.pixelFormat = code
        }
        format.size = try frameSize("size")
        format.framesPerSecond = try number("fps", in: 0.01...1000)
        if flag("libv4l2") { format.conversion = .libv4l2 }
        return format
    }

    /// A `WxH` option.
    func frameSize(_ name: String) throws(UsageError) -> FrameSize? {
        guard let text = value(name) else { return nil }
        guard let size = FrameSize(parsing: text) else {
            throw UsageError("--\(name) must be WIDTHxHEIGHT such as 1280x720, not '\(text)'")
        }
        return size
    }

    /// `--location LAT,LON[,ALT]`.
    func location() throws(UsageError) -> GeodeticCoordinate? {
        guard let text = value("location") else { return nil }
        guard let coordinate = GeodeticCoordinate(parsing: text) else {
            throw UsageError("--location must be LAT,LON or LAT,LON,ALT in degrees and metres, not '\(text)'")
        }
        return coordinate
    }
}
