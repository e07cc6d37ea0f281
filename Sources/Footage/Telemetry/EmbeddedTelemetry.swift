import ArcaptureCore
import Foundation
import Positioning

/// Reads the GPS that comes with a video: inside it (GoPro's GPMF telemetry track, `gpmd`, in MP4s
/// since the Hero5; Google's CAMM track; DJI's `djmd` metadata track, decoded by Positioning's
/// `DJIMetadataTrackBuilder`; an Insta360's trailer, `Insta360Trailer`), or beside it (the DJI subtitle file, `DJI_0001.SRT` beside `DJI_0001.MP4`),
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
        try load(chapters: [path])
    }

    /// Reads the telemetry of a recording split into the video files `paths` (in recording order)
    /// as one track, as ``read(chapters:)`` does; one whose times are only from the video's start
    /// is placed at `start` when given (the user's), else at the first file's creation time.
    ///
    /// - Throws: as ``load(_:)`` and ``read(chapters:)``.
    public static func load(chapters paths: [String], start: Date? = nil) throws(InputFileError) -> RecordedTrack {
        let path = paths.first ?? ""
        let reading = try read(chapters: paths)
        guard reading.isRelative else { return reading.track }
        if let start { return reading.anchored(at: start) }
        guard let created = try MediaContainer(path: path).creationTime else {
            throw .malformed(
                file: reading.origin, location: nil,
                problem: "its positions carry no date and time and \(path) has no creation time: "
                    + "nothing says when the video began: its start must be given")
        }
        return reading.anchored(at: created.date)
    }

    /// Whether the video at `path` has telemetry arcapture reads itself: a GPMF, CAMM, DJI or XTRA
    /// metadata track (false for files FFmpeg cannot read), an Insta360 trailer, or a DJI subtitle
    /// file beside it. A cheap look, not a reading: telemetry found here may still hold no GPS
    /// (``noGPSReason(_:)`` tells that from damage).
    public static func hasTelemetry(_ path: String) -> Bool {
        // An Insta360 trailer by its footer alone (the trailer itself can be megabytes).
        if subtitleFile(forVideo: path) != nil || insta360TrailerSize(path) != nil { return true }
        guard let container = try? MediaContainer(path: path) else { return false }
        return container.streams.contains { ["gpmd", "camm", "djmd", "xtmd"].contains($0.codecTag) }
    }

    /// Why the videos behind `error` (thrown by ``read(_:)`` or ``read(chapters:)``) carry no GPS
    /// arcapture reads: what was searched and found (a DJI metadata track of a product whose layout
    /// is not read, an Insta360 trailer or a track whose receiver never had a fix), nil when
    /// `error` is another (damage, a file that cannot be opened). A video without GPS is not a
    /// damaged one: it needs a track given, where damage is a data error.
    public static func noGPSReason(_ error: InputFileError) -> String? {
        guard case .malformed(_, _, let problem) = error, problem.hasSuffix(noGPS) else { return nil }
        return String(problem.dropLast(noGPS.count))
    }

    /// The Insta360 trailer at the end of the video at `path` (``Insta360Trailer``), nil when it
    /// has none or it cannot be read.
    static func insta360Trailer(_ path: String) -> [UInt8]? {
        guard let size = insta360TrailerSize(path),
            case .success(let trailer) = FileSystem.readTail(of: path, count: size), trailer.count == size
        else { return nil }
        return trailer
    }

    /// The size of the Insta360 trailer at the end of the video at `path`, as its footer gives it,
    /// nil when the file has no such footer or the size is not a trailer's.
    private static func insta360TrailerSize(_ path: String) -> Int? {
        guard case .success(let footer) = FileSystem.readTail(of: path, count: Insta360Trailer.footerSize),
            let size = Insta360Trailer.size(footer: footer), size >= Insta360Trailer.footerSize,
            size <= 256 << 20  // a trailer is kilobytes to megabytes (gyro at 1 kHz); more is not one
        else { return nil }
        return size
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

    /// Reads the telemetry of a recording its camera split into files (`paths`, in recording
    /// order; see `FootageReader.init(chapters:decoderThreads:)`) as one track timed from the
    /// first file's start: each file's own (GPMF inside it, or the DJI subtitle file beside it)
    /// placed where the file's video falls in the joined one, on the clock of the first file that
    /// has one (GPS, a drone's); the join is refused when a file's clock puts it more than
    /// ``joinTolerance`` from where it follows the one before (files out of order, or not of one
    /// recording); GoPro's payloads go through one `GPMFTrackBuilder`, so its clock is tied to the
    /// video over every file as for one. Files whose times are only from their own start are placed at the joined
    /// video's clock, or, when none has one, the reading is relative as a single file's is. A file
    /// without telemetry is said in a warning; its frames have no pose of their own.
    ///
    /// - Throws: as ``read(_:)``, for the first file with telemetry and for any file that has some
    ///   and cannot be read; when no file has any; or when the files do not continue one another
    ///   (`VideoChapters`).
    public static func read(chapters paths: [String]) throws(InputFileError) -> Reading {
        guard paths.count > 1 else { return try read(paths.first ?? "") }
        let chapters = try VideoChapters(paths: paths).chapters
        let span = "\(paths[0]) … \(paths[paths.count - 1])"
        // GoPro's chapters: every file's payloads go through one builder, on the joined video's
        // timeline, so the GPS clock is tied to the video over them all, as for one file.
        if chapters[0].container.streams.contains(where: { $0.codecTag == "gpmd" }) {
            var builder = GPMFTrackBuilder(path: span)
            var warnings: [String] = []
            var starts: [(path: String, joinedStart: Date)] = []
            for (path, chapter) in zip(paths, chapters) {
                guard let stream = chapter.container.streams.first(where: { $0.codecTag == "gpmd" }) else {
                    warnings.append(
                        "\(path): no GPMF telemetry track: its frames are posed only where the telemetry around "
                            + "it reaches")
                    continue
                }
                // Each file's own clock too, to check that it falls where it is joined.
                var own = GPMFTrackBuilder(path: path)
                try chapter.container.readPackets(of: stream.index) { packet in
                    builder.add(
                        time: (packet.time ?? 0) + chapter.presentationStart, duration: packet.duration,
                        bytes: packet.bytes)
                    own.add(time: packet.time, duration: packet.duration, bytes: packet.bytes)
                }
                if let start = try own.finish(stream: stream.index).videoStart {
                    starts.append((path, start.addingTimeInterval(-chapter.presentationStart)))
                }
            }
            let stream = chapters[0].container.streams.first(where: { $0.codecTag == "gpmd" })?.index ?? 0
            var (track, videoStart) = try builder.finish(stream: stream)
            if let videoStart {
                try checkOrder(starts, joinedStart: videoStart, paths: paths)
            }
            track.warnings = Array((warnings + track.warnings).prefix(RecordedTrack.warningLimit))
            track.warningCount += warnings.count
            return Reading(
                track: track, videoStart: videoStart, startSource: .gpsClock,
                origin: "the own GPS of \(paths.count) joined files (\(span))", isRelative: false)
        }
        var readings: [(reading: Reading, start: Double)] = []
        var warnings: [String] = []
        var firstFailure: InputFileError?
        for (path, chapter) in zip(paths, chapters) {
            do {
                readings.append((try read(path), chapter.presentationStart))
            } catch {
                // Telemetry that cannot be read is an error; a file with no GPS is said.
                guard let reason = noGPSReason(error) else { throw error }
                firstFailure = firstFailure ?? error
                warnings.append(
                    "\(path): \(reason)\(noGPS); its frames are posed only where the telemetry around it reaches")
            }
        }
        guard let clocked = readings.first(where: { !$0.reading.isRelative }) ?? readings.first else {
            throw firstFailure ?? .malformed(file: paths[0], location: nil, problem: "none of the files has telemetry")
        }
        // The joined video's start on the telemetry's clock, from the first file that has one.
        let start = clocked.reading.isRelative ? nil : clocked.reading.videoStart?.addingTimeInterval(-clocked.start)
        var parts: [RecordedTrack] = []
        var starts: [(path: String, joinedStart: Date)] = []
        for (reading, offset) in readings {
            // Each file where it falls in the joined video, on one clock: a drone's is written to
            // the second, so each file's own would move it by up to a second. Its own checks the order.
            if let own = reading.videoStart, !reading.isRelative {
                starts.append((reading.origin, own.addingTimeInterval(-offset)))
            }
            parts.append(reading.anchored(at: (start ?? Date(timeIntervalSince1970: 0)).addingTimeInterval(offset)))
        }
        if let start { try checkOrder(starts, joinedStart: start, paths: paths) }
        let first = readings[0].reading
        let origins = readings.map(\.reading.origin)
        let origin = "the telemetry of \(paths.count) joined files (\(origins[0]) … \(origins[origins.count - 1]))"
        var track = RecordedTrack.joined(parts, file: first.track.file, summary: "")
        track.summary = "\(track.fixes.count) fixes from \(readings.count) files; the first's: \(first.track.summary)"
        track.warnings = Array((warnings + track.warnings).prefix(RecordedTrack.warningLimit))
        track.warningCount += warnings.count
        return Reading(
            track: track, videoStart: start, startSource: clocked.reading.startSource, origin: origin,
            isRelative: start == nil)
    }

    /// Refuses files joined out of order, or not of one recording: each file's own clock
    /// (`joinedStart`: where it puts the joined video's start) must agree with the joined one
    /// within ``joinTolerance``.
    private static func checkOrder(
        _ starts: [(path: String, joinedStart: Date)], joinedStart: Date, paths: [String]
    ) throws(InputFileError) {
        for (path, start) in starts {
            let gap = start.timeIntervalSince(joinedStart)
            guard abs(gap) > joinTolerance else { continue }
            throw .malformed(
                file: path, location: nil,
                problem: String(
                    format: "its own clock puts it %.1f s %@ where it falls in the joined video: the files are not "
                        + "in recording order, or not of one recording (give them in the order they were recorded, "
                        + "usually their names' order: %@)", abs(gap), gap > 0 ? "after" : "before",
                    paths.map { URL(fileURLWithPath: $0).lastPathComponent }.sorted().joined(separator: " ")))
        }
    }

    /// How the message ends when a video carries no GPS that arcapture or ExifTool reads (so a
    /// program can tell it from telemetry that is there and damaged).
    public static let noGPS = ": it carries no GPS arcapture reads"

    /// Seconds a joined file's own clock may differ from where it falls in the joined video before
    /// the join is refused: GPS-clocked telemetry places a file within a frame or two; a drone's
    /// clock, written to the second, within one.
    public static let joinTolerance = 2.0

    /// Reads the telemetry of the video at `path`: its GPMF track when it has one, else the DJI
    /// subtitle file beside it.
    ///
    /// - Throws: `InputFileError`: the file is missing or unreadable, FFmpeg cannot read it, it
    ///   has neither (then it carries no GPS of its own), or nothing in it could be read.
    public static func read(_ path: String) throws(InputFileError) -> Reading {
        let container = try MediaContainer(path: path)
        // Google's Camera Motion Metadata (Street View cameras, Insta360's and Ricoh's exports).
        if container.streams.contains(where: { $0.codecTag == "camm" }),
            !container.streams.contains(where: { $0.codecTag == "gpmd" }),
            let camm = container.streams.first(where: { $0.codecTag == "camm" })
        {
            var builder = CAMMTrackBuilder(path: path)
            try container.readPackets(of: camm.index) { packet in
                builder.add(time: packet.time, duration: packet.duration, bytes: packet.bytes)
            }
            let (track, videoStart, isRelative) = try builder.finish(created: container.creationTime?.date)
            return Reading(
                track: track, videoStart: videoStart, startSource: .cammGPSClock, origin: "\(path)'s own GPS (CAMM)",
                isRelative: isRelative)
        }
        // DJI's metadata track (Osmo Action 4/5, Avata 2, Osmo 360), or XTRA's (Edge, Edge Pro): a
        // protobuf message a frame. When it holds no GPS, an .SRT beside the video or ExifTool may
        // still have some.
        var metadataProblem: String?
        var metadataDamaged = false
        if !container.streams.contains(where: { $0.codecTag == "gpmd" }),
            let djmd = container.streams.first(where: { ["djmd", "xtmd"].contains($0.codecTag) })
        {
            var builder = DJIMetadataTrackBuilder(path: path, tag: djmd.codecTag)
            try container.readPackets(of: djmd.index) { packet in builder.add(time: packet.time, bytes: packet.bytes) }
            do throws(InputFileError) {
                let (track, videoStart, isRelative) = try builder.finish()
                return Reading(
                    track: track, videoStart: videoStart, startSource: .djiGPSTime,
                    origin: "\(path)'s own GPS (\(builder.trackName))", isRelative: isRelative)
            } catch .malformed(_, _, let problem) {
                metadataProblem = problem
                metadataDamaged = builder.isDamaged
            }
        }
        guard let stream = container.streams.first(where: { $0.codecTag == "gpmd" }) else {
            if let subtitles = subtitleFile(forVideo: path) {
                let reading = try DJISubtitleTrack(data: InputFile.read(subtitles), file: subtitles)
                return Reading(
                    track: reading.track, videoStart: reading.videoStart?.date,
                    startSource: reading.videoStart?.source ?? .containerTime, origin: subtitles,
                    isRelative: reading.isRelative)
            }
            // An Insta360's trailer, after the file's last box: its verdict stands (ExifTool reads
            // the same records).
            if let trailer = insta360Trailer(path) {
                do throws(InputFileError) {
                    return Reading(
                        track: try Insta360Trailer.track(trailer: trailer, path: path), videoStart: nil,
                        startSource: .insta360GPSClock, origin: "\(path)'s Insta360 trailer", isRelative: false)
                } catch .malformed(_, let location, let problem) {
                    throw .malformed(
                        file: path, location: location,
                        problem: "no GPMF telemetry track (gpmd), and \(problem)" + noGPS)
                }
            }
            // A damaged DJI metadata track, with no subtitle file beside it: damage, not a video
            // without GPS (what the track held cannot be known).
            if metadataDamaged, let metadataProblem {
                throw .malformed(file: path, location: nil, problem: metadataProblem)
            }
            // The long tail (dashcams, Sony): what ExifTool reads.
            let exifTool: String
            do {
                return try ExifToolTrack.read(path)
            } catch {
                guard case .malformed(_, _, let problem) = error else { throw error }
                exifTool = problem
            }
            let kinds = container.streams.map { "\($0.kind) \($0.codecName == "none" ? $0.codecTag : $0.codecName)" }
                .joined(separator: ", ")
            throw .malformed(
                file: path, location: nil,
                problem: "no GPMF telemetry track (gpmd) among its streams (\(kinds))"
                    + (metadataProblem.map { ", \($0)" } ?? "") + ", no DJI subtitle file "
                    + "(.SRT) beside it, and \(exifTool)" + noGPS)
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
