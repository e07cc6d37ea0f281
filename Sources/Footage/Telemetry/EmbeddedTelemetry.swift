import ArcaptureCore
import Foundation
import Positioning

/// Reads the GPS that comes with a video: inside it (GoPro's GPMF telemetry track, `gpmd`, in MP4s
/// since the Hero5), or beside it (the DJI subtitle file, `DJI_0001.SRT` beside `DJI_0001.MP4`),
/// into a `RecordedTrack` with the video's own timing. GPMF packets are taken out of the container
/// here and decoded by Positioning's `GPMFTrackBuilder`; subtitles are read by its
/// `DJISubtitleTrack` (each says what real files get wrong and what is done about it).
public enum EmbeddedTelemetry {
    /// Whether `head` (a file's first bytes) is an ISO base media file (MP4, MOV, 3GP).
    public static func isMediaFile(head: [UInt8]) -> Bool { MediaFileSignature.isISOBaseMediaFile(head: head) }

    /// What a video's telemetry says: its track, and the time of the video's start (its
    /// presentation time 0) when the telemetry has a clock.
    public struct Reading: Sendable {
        /// The fixes. With ``isRelative``, timed from the Unix epoch as the video's start.
        public var track: RecordedTrack
        /// The telemetry's time at the video's start: a frame presented at `t` s was taken at this
        /// + `t`. Nil when it has no clock (a GoPro that never had a fix, a DJI file without dates).
        public var videoStart: Date?
        /// How ``videoStart`` was read: the GPS clock (UTC), or a drone's local clock read in `TZ`.
        public var startSource: CaptureTimeSource
        /// Where it came from, for notes: `GX010123.MP4's own GPS`, `DJI_0001.SRT`.
        public var origin: String
        /// Whether the track's times are only from the video's start (see ``anchored(at:)``).
        public var isRelative: Bool

        /// The track with its times moved so that the video's start is at `start`.
        public func anchored(at start: Date) -> RecordedTrack {
            let shift = start.timeIntervalSince(videoStart ?? Date(timeIntervalSince1970: 0))
            var moved = track
            for index in moved.fixes.indices { moved.fixes[index].time.addTimeInterval(shift) }
            for index in moved.orientations.indices { moved.orientations[index].time.addTimeInterval(shift) }
            for index in moved.attitudes.indices { moved.attitudes[index].time.addTimeInterval(shift) }
            return moved
        }
    }

    /// Reads the telemetry of the video at `path` as a track; one whose times are only from the
    /// video's start is placed at the container's creation time.
    ///
    /// - Throws: as ``read(_:)``, and when the times are only from the video's start and the
    ///   container has no creation time.
    public static func load(_ path: String) throws(InputFileError) -> RecordedTrack {
        let reading = try read(path)
        guard reading.isRelative else { return reading.track }
        guard let created = try MediaContainer(path: path).creationTime else {
            throw .malformed(
                file: reading.origin, location: nil,
                problem: "its cues carry no date and time and \(path) has no creation time: "
                    + "nothing says when the video began: its start must be given")
        }
        return reading.anchored(at: created.date)
    }

    /// Whether the video at `path` has telemetry: a GPMF track (false for files FFmpeg cannot
    /// read), or a DJI subtitle file beside it.
    public static func hasTelemetry(_ path: String) -> Bool {
        if subtitleFile(forVideo: path) != nil { return true }
        return ((try? MediaContainer(path: path))?.streams.contains { $0.codecTag == "gpmd" }) ?? false
    }

    /// The DJI subtitle file beside the video at `path`: the same name with `.SRT` in any case
    /// (`DJI_0001.MP4` → `DJI_0001.SRT`, `dji_0001.srt`), nil when there is none.
    public static func subtitleFile(forVideo path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let stem = url.deletingPathExtension().lastPathComponent
        let folder = url.deletingLastPathComponent()
        guard !url.pathExtension.isEmpty, url.pathExtension.lowercased() != "srt",
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return nil }
        // The exact case first (a folder may hold both, as after a copy from a FAT card).
        let matches = names.filter { name in
            let candidate = URL(fileURLWithPath: name)
            return candidate.deletingPathExtension().lastPathComponent == stem
                && candidate.pathExtension.lowercased() == "srt"
        }.sorted()
        guard let name = matches.first(where: { $0.hasSuffix(".SRT") }) ?? matches.first else { return nil }
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? name : (directory as NSString).appendingPathComponent(name)
    }

    /// Reads the telemetry of the video at `path`: its GPMF track when it has one, else the DJI
    /// subtitle file beside it.
    ///
    /// - Throws: `InputFileError`: the file is missing or unreadable, FFmpeg cannot read it, it
    ///   has neither (then it carries no GPS of its own), or nothing in it could be read.
    public static func read(_ path: String) throws(InputFileError) -> Reading {
        let container = try MediaContainer(path: path)
        guard let stream = container.streams.first(where: { $0.codecTag == "gpmd" }) else {
            if let subtitles = subtitleFile(forVideo: path) {
                let reading = try DJISubtitleTrack(data: InputFile.read(subtitles), file: subtitles)
                return Reading(
                    track: reading.track, videoStart: reading.videoStart?.date,
                    startSource: reading.videoStart?.source ?? .containerTime, origin: subtitles,
                    isRelative: reading.isRelative)
            }
            let kinds = container.streams.map { "\($0.kind) \($0.codecName == "none" ? $0.codecTag : $0.codecName)" }
                .joined(separator: ", ")
            throw .malformed(
                file: path, location: nil,
                problem: "no GPMF telemetry track (gpmd) among its streams (\(kinds)) and no DJI subtitle file "
                    + "(.SRT) beside it: it carries no GPS of its own")
        }
        var builder = GPMFTrackBuilder(path: path)
        try container.readPackets(of: stream.index) { packet in
            builder.add(time: packet.time, duration: packet.duration, bytes: packet.bytes)
        }
        let (track, videoStart) = try builder.finish(stream: stream.index)
        return Reading(
            track: track, videoStart: videoStart, startSource: .gpsClock, origin: "\(path)'s own GPS",
            isRelative: false)
    }
}
