import ArcaptureCore
import CFFmpeg
import Foundation

/// One recording that its camera split into files, read as one: GoPro's chapters (`GX010123.MP4`,
/// `GX020123.MP4`, … at 4 GB or ~12 minutes), a DJI drone's files at 4 GB, a dashcam's loop.
///
/// Each file's video starts where the one before it ends: a file's place on the joined timeline
/// (its ``Chapter/offset``) is the end of the previous file's video (its start time and duration,
/// as the container states them) less its own video's start, so a file whose timestamps restart
/// at 0 (every camera's) and one that kept the recording's (an `ffmpeg -f segment` without
/// `-reset_timestamps`) both land where they were recorded. Every stream of a file is moved by
/// the same offset, so its audio and telemetry stay where they were against its video.
///
/// The files are opened and checked before any frame is read: each must hold the same video (codec,
/// size, pixel format, turn) and the same streams in the same order as the first, or the join is
/// refused naming the file and what differs: a file from another camera or setting would
/// otherwise end up half-way through the video. Their containers stay open (their indexes, not
/// their frames) until read.
final class VideoChapters {
    /// One file of the recording.
    struct Chapter {
        /// The file, opened.
        let container: MediaContainer
        /// Seconds added to the file's own timestamps to place them on the joined timeline (the
        /// first file's).
        let offset: Double
        /// Where its video's first frame falls in the joined video: seconds from the first file's
        /// first frame (the time its own telemetry calls its start).
        let presentationStart: Double
        /// The frames its container says its video holds (0 when it does not say).
        let frameCount: Int
    }

    /// The files, in the order given.
    let chapters: [Chapter]

    /// The frames the containers say the files hold, together (0 when one of them does not say).
    var frameCount: Int { chapters.contains { $0.frameCount == 0 } ? 0 : chapters.reduce(0) { $0 + $1.frameCount } }

    /// Opens `paths` (at least one), in order, and places each on the first's timeline.
    ///
    /// - Throws: `InputFileError`: a file is missing, unreadable or not a video FFmpeg reads, or
    ///   (``InputFileError/malformed(file:location:problem:)``) it does not continue the first:
    ///   another codec, size, pixel format, turn or set of streams.
    init(paths: [String]) throws(InputFileError) {
        var chapters: [Chapter] = []
        var first: Signature?
        var end: Double?
        for path in paths {
            let container = try MediaContainer(path: path)
            let signature = try Signature(container)
            if let first {
                if let difference = first.difference(from: signature) {
                    throw .malformed(
                        file: path, location: nil,
                        problem: "it does not continue \(paths[0]) as a chapter of one recording: \(difference)")
                }
            }
            let offset = end.map { $0 - signature.start } ?? 0
            chapters.append(
                Chapter(
                    container: container, offset: offset,
                    presentationStart: offset + signature.start - (first?.start ?? signature.start),
                    frameCount: signature.frameCount))
            end = offset + signature.start + signature.duration
            if first == nil { first = signature }
        }
        self.chapters = chapters
    }

    /// What must be the same in every file of a recording, and where its video lies.
    private struct Signature {
        var codec: String
        var width: Int32
        var height: Int32
        var pixelFormat: String
        var rotation: Int32
        /// Each stream's kind and codec tag, in file order.
        var streams: [String]
        /// The video's first timestamp and its length, in seconds.
        var start: Double
        var duration: Double
        var frameCount: Int

        init(_ container: MediaContainer) throws(InputFileError) {
            guard let context = container.context, let video = container.streams.first(where: { $0.kind == .video }),
                let stream = context.pointee.streams[video.index], let parameters = stream.pointee.codecpar
            else {
                throw .malformed(file: container.path, location: nil, problem: "no video stream")
            }
            codec = video.codecName
            width = parameters.pointee.width
            height = parameters.pointee.height
            pixelFormat =
                av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.pointee.format)).map { String(cString: $0) }
                ?? "unknown"
            var mirrored: Int32 = 0
            rotation = arcapture_av_rotation(stream, &mirrored)
            streams = container.streams.map { "\($0.kind) \($0.codecTag.isEmpty ? $0.codecName : $0.codecTag)" }
            let base = stream.pointee.time_base
            let seconds = { (ticks: Int64) in base.den == 0 ? 0 : Double(ticks) * Double(base.num) / Double(base.den) }
            start = stream.pointee.start_time == arcapture_av_no_timestamp ? 0 : seconds(stream.pointee.start_time)
            frameCount = Int(stream.pointee.nb_frames)
            if stream.pointee.duration != arcapture_av_no_timestamp, stream.pointee.duration > 0 {
                duration = seconds(stream.pointee.duration)
            } else if context.pointee.duration > 0 {
                duration = Double(context.pointee.duration) / Double(AV_TIME_BASE)
            } else {
                throw .malformed(
                    file: container.path, location: nil,
                    problem: "its container states no duration, so where the next file's frames begin is unknown")
            }
        }

        /// What differs between this (the first file) and `other`, in words; nil when nothing does.
        func difference(from other: Signature) -> String? {
            if codec != other.codec || width != other.width || height != other.height
                || pixelFormat != other.pixelFormat
            {
                return "its video is \(other.width)x\(other.height) \(other.codec) \(other.pixelFormat), the first's "
                    + "\(width)x\(height) \(codec) \(pixelFormat)"
            }
            if rotation != other.rotation {
                return "its video is turned \(other.rotation)°, the first's \(rotation)°"
            }
            if streams != other.streams {
                return "its streams are \(other.streams.joined(separator: ", ")); the first's "
                    + streams.joined(separator: ", ")
            }
            return nil
        }
    }
}
