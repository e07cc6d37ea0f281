import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import GeoAR

extension FootageDestination {
    /// Parses `--output` and `--format`: `-` is stdout; a
    /// name ending `.y4m` a Y4M file; `.mp4`, `.m4v`, `.mov` or `.mkv` a video file (encoded as
    /// `encoding` says, `VideoEncoding.standard` when nil); a name with a counter (`%n`, `%05n`)
    /// a template for files; any other name an MJPEG file. `--format` (`mjpeg`, `y4m`, `jpeg`,
    /// `mp4`, `mov` or `mkv`) overrides what the name implies.
    ///
    /// `v4l2:NODE` is a virtual camera, YUYV unless `--format mjpeg`.
    init(output: String, format: String?, encoding: VideoEncoding? = nil) throws(PipelineConfigurationError) {
        try OutputURL.refuse(output, streamOptions: "--output - --format y4m", paced: false)
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
        if format == nil && (container == .webm || (template.variesPerFrame && output.lowercased().hasSuffix(".png"))) {
            throw PipelineConfigurationError(
                "--output '\(output)' is for an overlay alone (VP9 with alpha, PNG frames): add --overlay-only; "
                    + "annotated footage goes in FILE.mp4, FILE.mov, FILE.mkv or frames/%05n.jpg")
        }
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

    /// Parses `--output` for `--overlay-only`: `FILE.mov` (ProRes 4444 unless `encoding` says
    /// QuickTime Animation or PNG), `FILE.webm` or `FILE.mkv` (VP9 with alpha), or a name with a
    /// counter ending `.png` (one PNG per frame). Anything else cannot hold alpha, or would hide
    /// what it holds, and is refused with the choices.
    init(overlayOutput output: String, format: String?, encoding: VideoEncoding?) throws(PipelineConfigurationError) {
        let choices = "FILE.mov (ProRes 4444; --codec qtrle or png), FILE.webm (VP9) or overlay/%05n.png"
        if OutputURL.scheme(of: output) != nil {
            throw PipelineConfigurationError("--output '\(output)' is a URL: --overlay-only writes \(choices)")
        }
        guard format == nil else {
            throw PipelineConfigurationError(
                "--overlay-only takes its kind from --output's name (\(choices)), not --format")
        }
        let template = OutputTemplate(pattern: output)
        let found = (output as NSString).pathExtension.lowercased()
        if template.variesPerFrame {
            guard found == "png", encoding == nil || encoding == .png else {
                throw PipelineConfigurationError(
                    "--overlay-only writes numbered frames as PNG (overlay/%05n.png), not '\(output)'")
            }
            self = .pngFiles(template)
            return
        }
        let isVP9 = encoding?.codecName == "vp9"
        switch VideoContainerFormat(fileName: output) {
        case .mov:
            guard !isVP9 else {
                throw PipelineConfigurationError("--output '\(output)': VP9 with alpha goes in FILE.webm or FILE.mkv")
            }
            self = .videoFile(output, .mov, encoding ?? .proRes4444)
        case .some(let container) where container == .webm || container == .matroska:
            guard encoding == nil || isVP9 else {
                throw PipelineConfigurationError(
                    "--output '\(output)': ProRes, QuickTime Animation and PNG go in FILE.mov; FILE.\(found) takes VP9")
            }
            self = .videoFile(output, container, encoding ?? .standardVP9)
        case .mp4:
            throw PipelineConfigurationError(
                "--output '\(output)': MP4 holds no codec with alpha that editors take; --overlay-only writes \(choices)"
            )
        default:
            throw PipelineConfigurationError("--overlay-only writes \(choices), not '\(output)'")
        }
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
        case .pngFiles: accepted = ["png"]
        case .videoFile(_, .webm, _): accepted = ["webm"]
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
                    + ".\(format == .matroska ? "mkv" : format == .mov ? "mov" : format == .webm ? "webm" : "mp4"), not .\(found)"
            )
        default:
            throw PipelineConfigurationError(
                "--output '\(output)': \(choices), not .\(found); for another container, pipe --output - into ffmpeg "
                    + "(... --output - | ffmpeg -f mjpeg -i - OUT.\(found))")
        }
    }

}
