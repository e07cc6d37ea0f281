import ArcaptureCore
import Foundation
import Positioning

/// Reads the GPS a video file carries inside it (GoPro's GPMF telemetry track, `gpmd`, in MP4s
/// since the Hero5) into a `RecordedTrack`, with the file's own timing: the packets are taken out
/// of the container here, and decoded by Positioning's `GPMFTrackBuilder` (which says what real
/// files get wrong and what is done about it).
public enum EmbeddedTelemetry {
    /// Whether `head` (a file's first bytes) is an ISO base media file (MP4, MOV, 3GP).
    public static func isMediaFile(head: [UInt8]) -> Bool { MediaFileSignature.isISOBaseMediaFile(head: head) }

    /// What a video's telemetry says: its track, and the GPS time of the video's start (its
    /// presentation time 0), nil when the receiver never had the time.
    public struct Reading: Sendable {
        /// The fixes.
        public var track: RecordedTrack
        /// The GPS time at the video's start: a frame presented at `t` s was taken at this + `t`.
        public var videoStart: Date?
    }

    /// Reads the telemetry of the video at `path` as a track.
    ///
    /// - Throws: `InputFileError`: the file is missing or unreadable, FFmpeg cannot read it, it
    ///   has no GPMF track (then it carries no GPS of its own), or no payload could be read.
    public static func load(_ path: String) throws(InputFileError) -> RecordedTrack { try read(path).track }

    /// Whether the video at `path` has a GPMF telemetry track (false for files FFmpeg cannot read).
    public static func hasTelemetry(_ path: String) -> Bool {
        ((try? MediaContainer(path: path))?.streams.contains { $0.codecTag == "gpmd" }) ?? false
    }

    /// Reads the telemetry of the video at `path`: the track and the video's start on the GPS clock.
    ///
    /// - Throws: as ``load(_:)``.
    public static func read(_ path: String) throws(InputFileError) -> Reading {
        let container = try MediaContainer(path: path)
        guard let stream = container.streams.first(where: { $0.codecTag == "gpmd" }) else {
            let kinds = container.streams.map { "\($0.kind) \($0.codecName == "none" ? $0.codecTag : $0.codecName)" }
                .joined(separator: ", ")
            throw .malformed(
                file: path, location: nil,
                problem: "no GPMF telemetry track (gpmd) among its streams (\(kinds)): it carries no GPS of its own")
        }
        var builder = GPMFTrackBuilder(path: path)
        try container.readPackets(of: stream.index) { packet in
            builder.add(time: packet.time, duration: packet.duration, bytes: packet.bytes)
        }
        let (track, videoStart) = try builder.finish(stream: stream.index)
        return Reading(track: track, videoStart: videoStart)
    }
}
