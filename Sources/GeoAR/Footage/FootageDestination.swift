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
    }

    /// Whether frames go out as planes (Y4M) rather than JPEGs.
    public var wantsPlanes: Bool {
        switch self {
        case .y4mFile, .y4mStream: true
        case .files, .mjpegFile, .mjpegStream: false
        }
    }
}
