import CaptureKit
import GeoAR

/// An `--output v4l2:NODE` name read: the loopback node a virtual camera writes to and in what
/// encoding, for live capture and footage alike, so both say the same things about it.
public struct VirtualCameraTarget: Equatable, Sendable {
    /// The prefix that makes an output name a virtual camera.
    public static let prefix = "v4l2:"

    /// The node, such as `/dev/video10`.
    public let path: String
    /// What the frames go out as.
    public let encoding: VirtualCameraOutput.Encoding

    /// Reads `output` (with the encoding `format` names, YUYV when nil), or returns nil when the
    /// name is no virtual camera's.
    ///
    /// - Parameters:
    ///   - output: the output's name (`v4l2:/dev/video10`, say; any other name gives nil).
    ///   - format: the encoding's name (`yuyv`, `mjpeg`), nil for YUYV.
    ///   - formatOption: the option `format` came from, for the message (`--format-out` for
    ///     capture, `--format` for footage).
    /// - Throws: ``PipelineConfigurationError`` when the node is no path or the encoding is
    ///   neither YUYV nor MJPEG.
    public init?(output: String, format: String?, formatOption: String) throws(PipelineConfigurationError) {
        guard output.hasPrefix(Self.prefix) else { return nil }
        let node = String(output.dropFirst(Self.prefix.count))
        guard node.hasPrefix("/") else {
            throw PipelineConfigurationError(
                "--output v4l2: needs the loopback's node, such as v4l2:/dev/video10, not '\(output)'")
        }
        switch format?.lowercased() {
        case nil, "yuyv": encoding = .yuyv
        case "mjpeg", "jpeg": encoding = .mjpeg
        default:
            throw PipelineConfigurationError(
                "\(formatOption) for a virtual camera must be yuyv or mjpeg, not '\(format ?? "")'")
        }
        path = node
    }
}
