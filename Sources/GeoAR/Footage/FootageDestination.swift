import CaptureKit
import Footage
import Foundation

/// Where annotated footage goes (a ``FootageJob``'s output). A command line reads one from its
/// options (`arcapture annotate --output`, `--format`).
public enum FootageDestination: Equatable, Sendable {
    /// One JPEG per frame, named from a template (`frames/%05n.jpg`), each written atomically.
    case files(OutputTemplate)
    /// Concatenated JPEGs in one file, which appears whole when the run ends.
    case mjpegFile(String)
    /// A YUV4MPEG2 file, which appears whole when the run ends.
    case y4mFile(String)
    /// Concatenated JPEGs on stdout (`--output -`).
    case mjpegStream
    /// YUV4MPEG2 on stdout (`--output - --format y4m`).
    case y4mStream
    /// A video file (MP4, MOV, Matroska): H.264 or MJPEG, the input video's other streams copied;
    /// it appears whole when the run ends.
    case videoFile(String, VideoContainerFormat, VideoEncoding)
    /// A virtual camera (a v4l2loopback node, `VirtualCameraOutput`), written at the footage's
    /// rate (`--output v4l2:/dev/video10`).
    case virtualCamera(path: String, encoding: VirtualCameraOutput.Encoding)
    /// The overlay alone, one RGBA PNG per frame with its alpha, named from a template
    /// (`overlay/%05n.png`), each written atomically: an image sequence for an editor.
    case pngFiles(OutputTemplate)

    /// Refuses a file template whose names would not tell apart frames `interval` seconds apart
    /// (`%H%M%S` for 2 frames a second: the second frame would replace the first).
    ///
    /// - Throws: ``PipelineConfigurationError`` with the fix (add `%n` or `%L`).
    public func checkNames(framesEvery interval: Double?) throws(PipelineConfigurationError) {
        guard let template = template, let interval, let step = template.timeResolution, interval < step
        else { return }
        let rate = interval > 0 ? String(format: "%.4g frames a second", 1 / interval) : "all at one time"
        let changes =
            step.isInfinite ? "it never changes" : "it changes every \(step < 1 ? "millisecond" : Self.words(step))"
        throw PipelineConfigurationError(
            "'\(template.pattern)' would give several frames one name (\(rate); \(changes)): "
                + "add %n (the frame number) or %L (milliseconds)")
    }

    private static func words(_ seconds: Double) -> String {
        switch seconds {
        case ..<60: "second"
        case ..<3600: "minute"
        case ..<86_400: "hour"
        default: "day"
        }
    }

    /// Whether frames go out as planes (Y4M) rather than JPEGs.
    public var wantsPlanes: Bool {
        switch self {
        case .y4mFile, .y4mStream: true
        case .videoFile(_, _, let encoding): encoding.codecName == "h264"
        case .virtualCamera(_, let encoding): encoding == .yuyv
        case .files, .mjpegFile, .mjpegStream, .pngFiles: false
        }
    }

    /// The template of numbered files (JPEG or PNG), when frames are written one file each.
    public var template: OutputTemplate? {
        switch self {
        case .files(let template), .pngFiles(let template): template
        default: nil
        }
    }

    /// Whether the overlay is written alone, with alpha (an editor's overlay track), rather than
    /// drawn on the frames: PNG files, or a video whose encoding has alpha.
    public var isOverlay: Bool { overlayLayout != nil }

    /// How an overlay's frames are laid out for their encoder; nil when frames are drawn on.
    public var overlayLayout: VideoPicture.Layout? {
        switch self {
        case .pngFiles: .rgba
        case .videoFile(_, _, let encoding): encoding.pictureLayout
        default: nil
        }
    }

    /// The threads a video file read for this destination is decoded with, for CaptureKit's
    /// `FootageReader(path:decoderThreads:)`: one when libx264 encodes the output, whose own frame
    /// threads already keep every core busy (libavcodec's decoder threads then only contend with
    /// them, and each holds frames: measured at 1080p, 22 MB less at the peak and no slower); 0,
    /// libavcodec's choice, for everything else, where decoding is most of the work.
    public var decoderThreads: Int {
        if case .videoFile(_, _, let encoding) = self, encoding.codecName == "h264" { return 1 }
        return 0
    }

    /// The container, when a video file is written.
    public var videoFormat: VideoContainerFormat? {
        if case .videoFile(_, let format, _) = self { return format }
        return nil
    }
}
