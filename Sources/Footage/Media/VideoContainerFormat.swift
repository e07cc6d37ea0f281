import Foundation

/// The container a video is written in, chosen by the output's name.
public enum VideoContainerFormat: String, Sendable, Equatable, CaseIterable {
    /// MPEG-4 Part 14 (`.mp4`, `.m4v`): what every player and editor opens. Holds H.264, MJPEG,
    /// AAC and GoPro's `gpmd` telemetry; not every data track.
    case mp4
    /// QuickTime (`.mov`): MP4's parent, which holds more kinds of data track.
    case mov
    /// Matroska (`.mkv`): audio, video and subtitles of any codec; no data tracks.
    case matroska
    /// WebM (`.webm`): Matroska for the web, VP9 with alpha (an overlay-only output).
    case webm

    /// The format a file name asks for, by its extension; nil for other names.
    public init?(fileName: String) {
        switch (fileName as NSString).pathExtension.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "mov": self = .mov
        case "mkv": self = .matroska
        case "webm": self = .webm
        default: return nil
        }
    }

    /// libavformat's name for its muxer.
    var muxerName: String { rawValue }

    /// How people call it in messages.
    public var displayName: String {
        switch self {
        case .mp4: "MP4"
        case .mov: "MOV"
        case .matroska: "Matroska"
        case .webm: "WebM"
        }
    }
}
