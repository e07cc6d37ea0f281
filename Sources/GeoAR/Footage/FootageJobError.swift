import ARCompositor
import ArcaptureCore
import CaptureKit
import Footage

/// Why a ``FootageJob`` cannot run, in the library's terms: a program says which of its own
/// options fixes each (as `arcapture annotate` does).
public enum FootageJobError: Error, Sendable, CustomStringConvertible {
    /// An input file (the footage, a track, a calibration, a sidecar) is missing or malformed.
    case input(InputFileError)
    /// The frames cannot be timed.
    case timing(FootageTimingError)
    /// The plan takes positions from the footage, which has none of its own (a video without
    /// telemetry, an MJPEG or Y4M stream): the footage, its kind and, for a video, what was
    /// looked for in it (its streams, a subtitle file beside it, what ExifTool finds).
    case noPositions(footage: String, kind: FootageInfo.Kind, searched: String? = nil)
    /// Every frame's time falls outside the track, so none would have a pose; nothing was written.
    case trackMissed(TrackMiss)
    /// The output's file names cannot tell frames apart, or the output cannot take this footage.
    case destination(PipelineConfigurationError)
    /// The style's font cannot be used.
    case font(FontError)
    /// The output (or the sidecar) cannot be created.
    case output(OutputError)

    /// One line for the user.
    public var description: String {
        switch self {
        case .input(let error): error.description
        case .timing(let error): error.description
        case .noPositions(let footage, let kind, let searched):
            kind == .video
                ? "\(footage) carries no GPS of its own (\(searched ?? "no GPMF telemetry track, no DJI .SRT beside it")): "
                    + "positions must come from a track"
                : "\(footage) carries no positions of its own (only a video with telemetry or a folder of geotagged "
                    + "photos does): positions must come from a track"
        case .trackMissed(let miss): "\(miss), so none would be annotated; nothing was written"
        case .destination(let error): error.description
        case .font(let error): error.description
        case .output(let error): error.description
        }
    }
}
