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

    /// Parses `--output` and `--format`: `-` is stdout; a
    /// name ending `.y4m` a Y4M file; a name with a counter (`%n`, `%05n`) a template for files; any
    /// other name an MJPEG file. `--format` (`mjpeg`, `y4m` or
    /// `jpeg`) overrides what the name implies.
    public init(output: String, format: String?) throws(PipelineConfigurationError) {
        let template = OutputTemplate(pattern: output)
        let chosen = format ?? (output.hasSuffix(".y4m") ? "y4m" : template.variesPerFrame ? "jpeg" : "mjpeg")
        switch (chosen, output) {
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
        default: throw PipelineConfigurationError("--format must be mjpeg, y4m or jpeg, not '\(chosen)'")
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
        case .mjpegStream, .y4mStream: return
        }
        guard !accepted.contains(found) else { return }
        let choices =
            "arcapture writes an MJPEG stream (FILE.mjpeg), Y4M (FILE.y4m) or one JPEG per frame (frames/%05n.jpg)"
        switch (destination, found) {
        case (.mjpegFile, "jpg"), (.mjpegFile, "jpeg"):
            throw PipelineConfigurationError(
                "--output '\(output)' names one JPEG, but footage is many frames: give a name with a counter "
                    + "for a JPEG per frame (frames/%05n.jpg), or FILE.mjpeg for one MJPEG stream")
        case (.files, _):
            throw PipelineConfigurationError(
                "--output '\(output)': frames are written as JPEGs, so the name should end in .jpg, not .\(found)")
        default:
            throw PipelineConfigurationError(
                "--output '\(output)': \(choices), not .\(found); for a video, pipe --output - into ffmpeg "
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
        case .files, .mjpegFile, .mjpegStream: false
        }
    }
}
