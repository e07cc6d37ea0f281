import CaptureKit
import Footage
import Foundation

/// Where `arcapture annotate` writes annotated footage.
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

    /// Parses `--output` and `--format`: `-` is stdout; a
    /// name ending `.y4m` a Y4M file; `.mp4`, `.m4v`, `.mov` or `.mkv` a video file (encoded as
    /// `encoding` says, `VideoEncoding.standard` when nil); a name with a counter (`%n`, `%05n`)
    /// a template for files; any other name an MJPEG file. `--format` (`mjpeg`, `y4m`, `jpeg`,
    /// `mp4`, `mov` or `mkv`) overrides what the name implies.
    ///
    /// `v4l2:NODE` is a virtual camera, YUYV unless `--format mjpeg`.
    public init(output: String, format: String?, encoding: VideoEncoding? = nil) throws(PipelineConfigurationError) {
        if let camera = try VirtualCameraTarget(output: output, format: format, formatOption: "--format") {
            guard encoding == nil else {
                throw PipelineConfigurationError(
                    "--codec, --crf, --preset and --x264-params are for a video file, not a virtual camera")
            }
            self = .virtualCamera(path: camera.path, encoding: camera.encoding)
            return
        }
        let template = OutputTemplate(pattern: output)
        let container = VideoContainerFormat(fileName: output)
        let chosen =
            format
            ?? (output.hasSuffix(".y4m")
                ? "y4m"
                : template.variesPerFrame ? "jpeg" : container.map { $0 == .matroska ? "mkv" : $0.rawValue } ?? "mjpeg")
        if encoding != nil && !["mp4", "mov", "mkv"].contains(chosen) {
            throw PipelineConfigurationError(
                "--codec, --crf, --preset and --x264-params are for a video file (--output FILE.mp4, .mov or .mkv), not \(chosen) output"
            )
        }
        switch (chosen, output) {
        case ("mp4", "-"), ("mov", "-"), ("mkv", "-"):
            throw PipelineConfigurationError(
                "a video file is written to a file (its index goes in at the end): give --output a name like ride.mp4")
        case ("mp4", _), ("mov", _), ("mkv", _):
            let format: VideoContainerFormat = chosen == "mkv" ? .matroska : chosen == "mov" ? .mov : .mp4
            self = .videoFile(output, format, encoding ?? .standard)
        case ("mjpeg", "-"): self = .mjpegStream
        case ("y4m", "-"): self = .y4mStream
        case ("mjpeg", _): self = .mjpegFile(output)
        case ("y4m", _): self = .y4mFile(output)
        case ("jpeg", "-"):
            throw PipelineConfigurationError("--format jpeg writes files: give --output a name like frames/%05n.jpg")
        case ("jpeg", _):
            guard template.variesPerFrame else {
                throw PipelineConfigurationError(
                    "--format jpeg needs a name with a counter, like frames/%05n.jpg, not '\(output)'")
            }
            self = .files(template)
        default: throw PipelineConfigurationError("--format must be mjpeg, y4m, jpeg, mp4, mov or mkv, not '\(chosen)'")
        }
        try Self.checkExtension(of: output, for: self)
    }

    /// Refuses a name whose extension says something else than what will be written (`o.jpg` for
    /// an MJPEG stream of many frames, which viewers show as one picture; `out.avi`, which is not
    /// AVI). A name without an extension is taken as it is.
    private static func checkExtension(of output: String, for destination: FootageDestination)
        throws(PipelineConfigurationError)
    {
        guard output != "-" else { return }
        let found = (output as NSString).pathExtension.lowercased()
        let accepted: Set<String>
        switch destination {
        case .files: accepted = ["jpg", "jpeg"]
        case .mjpegFile: accepted = ["mjpeg", "mjpg", ""]
        case .y4mFile: accepted = ["y4m", ""]
        case .videoFile(_, .matroska, _): accepted = ["mkv", ""]
        case .videoFile(_, .mov, _): accepted = ["mov", ""]
        case .videoFile: accepted = ["mp4", "m4v", ""]
        case .mjpegStream, .y4mStream, .virtualCamera: return
        }
        guard !accepted.contains(found) else { return }
        let choices =
            "arcapture writes a video (FILE.mp4, FILE.mov, FILE.mkv), an MJPEG stream (FILE.mjpeg), Y4M (FILE.y4m) "
            + "or one JPEG per frame (frames/%05n.jpg)"
        switch (destination, found) {
        case (.mjpegFile, "jpg"), (.mjpegFile, "jpeg"):
            throw PipelineConfigurationError(
                "--output '\(output)' names one JPEG, but footage is many frames: give a name with a counter "
                    + "for a JPEG per frame (frames/%05n.jpg), or FILE.mjpeg for one MJPEG stream")
        case (.files, _):
            throw PipelineConfigurationError(
                "--output '\(output)': frames are written as JPEGs, so the name should end in .jpg, not .\(found)")
        case (.videoFile(_, let format, _), _):
            throw PipelineConfigurationError(
                "--output '\(output)': --format writes \(format.displayName), so the name should end in "
                    + "\(format == .matroska ? ".mkv" : format == .mov ? ".mov" : ".mp4"), not .\(found)")
        default:
            throw PipelineConfigurationError(
                "--output '\(output)': \(choices), not .\(found); for another container, pipe --output - into ffmpeg "
                    + "(... --output - | ffmpeg -f mjpeg -i - OUT.\(found))")
        }
    }

    /// Refuses a file template whose names would not tell apart frames `interval` seconds apart
    /// (`%H%M%S` for 2 frames a second: the second frame would replace the first).
    ///
    /// - Throws: ``PipelineConfigurationError`` with the fix (add `%n` or `%L`).
    public func checkNames(framesEvery interval: Double?) throws(PipelineConfigurationError) {
        guard case .files(let template) = self, let interval, let step = template.timeResolution, interval < step
        else { return }
        let rate = interval > 0 ? String(format: "%.4g frames a second", 1 / interval) : "all at one time"
        let changes =
            step.isInfinite ? "it never changes" : "it changes every \(step < 1 ? "millisecond" : Self.words(step))"
        throw PipelineConfigurationError(
            "--output '\(template.pattern)' would give several frames one name (\(rate); \(changes)): "
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
        case .files, .mjpegFile, .mjpegStream: false
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
