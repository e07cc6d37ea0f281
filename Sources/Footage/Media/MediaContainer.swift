import ArcaptureCore
import CFFmpeg
import Foundation

/// A video file (MP4, MOV, MKV, AVI…) opened with libavformat: what streams it holds and, on
/// request, one stream's packets in file order. Not thread-safe: one reader.
///
/// libavformat reads what the container says and nothing more, so opening an hour of footage costs
/// its index, not its length; ``readPackets(of:_:)`` marks every other stream discarded, so the
/// demuxer skips their samples instead of reading them.
final class MediaContainer {
    /// What one stream of the file carries.
    struct Stream: Sendable, Equatable {
        /// What kind of stream it is.
        enum Kind: Sendable, Equatable {
            case video, audio, data, subtitle, other
        }

        /// Its index in the file.
        var index: Int
        /// What it carries.
        var kind: Kind
        /// The codec tag's four characters (`avc1`, `mp4a`, `gpmd`); empty when the container has none.
        var codecTag: String
        /// FFmpeg's name for the codec (`h264`, `aac`, `bin_data`).
        var codecName: String
        /// The track's handler name (`GoPro MET`), when the container gives one.
        var handlerName: String?
    }

    /// The file, as given.
    let path: String
    /// Its streams, in file order.
    let streams: [Stream]
    /// libavformat's state; nil once closed. Only `VideoDecoder` reads it beside this type.
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?

    /// Opens `path` and reads its streams.
    ///
    /// - Throws: `InputFileError`: missing, unreadable, or not a container FFmpeg can read (a file
    ///   cut short before its index says so, in FFmpeg's words).
    init(path: String) throws(InputFileError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .missing(file: path)
        }
        guard !isDirectory.boolValue else { throw .unreadable(file: path, reason: "a folder, not a video file") }
        guard access(path, R_OK) == 0 else { throw .unreadable(file: path, reason: String(cString: strerror(errno))) }
        arcapture_av_keep_log()
        arcapture_av_clear_log()
        var opened: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_open_input(&opened, path, nil, nil)
        guard status >= 0, let opened else {
            throw .malformed(
                file: path, location: nil, problem: "not a video file FFmpeg can read: \(Self.failure(status))")
        }
        context = opened
        let found = avformat_find_stream_info(opened, nil)
        guard found >= 0 else {
            avformat_close_input(&context)
            throw .malformed(file: path, location: nil, problem: "its streams cannot be read: \(Self.failure(found))")
        }
        var streams: [Stream] = []
        for index in 0..<Int(opened.pointee.nb_streams) {
            guard let stream = opened.pointee.streams[index], let parameters = stream.pointee.codecpar else { continue }
            var tag = [CChar](repeating: 0, count: 5)
            arcapture_av_codec_tag(stream, &tag)
            let kind: Stream.Kind =
                switch parameters.pointee.codec_type {
                case AVMEDIA_TYPE_VIDEO: .video
                case AVMEDIA_TYPE_AUDIO: .audio
                case AVMEDIA_TYPE_DATA: .data
                case AVMEDIA_TYPE_SUBTITLE: .subtitle
                default: .other
                }
            streams.append(
                Stream(
                    index: index, kind: kind,
                    codecTag: String(decoding: tag.prefix(4).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\0")),
                    codecName: String(cString: avcodec_get_name(parameters.pointee.codec_id)),
                    handlerName: arcapture_av_stream_tag(stream, "handler_name").map { String(cString: $0) }))
        }
        self.streams = streams
    }

    deinit { avformat_close_input(&context) }

    /// Calls `body` with each packet of stream `index` in file order: its time and duration in
    /// seconds from the stream's start (nil when the container has none) and its bytes. The other
    /// streams are skipped.
    ///
    /// - Throws: `InputFileError/malformed(file:location:problem:)` when reading stops before the
    ///   end (a file cut short inside its data), naming the time reached.
    func readPackets(of index: Int, _ body: (MediaPacket) -> Void) throws(InputFileError) {
        guard let context, index >= 0, index < Int(context.pointee.nb_streams) else { return }
        select([index])
        guard let stream = context.pointee.streams[index] else { return }
        let timeBase = stream.pointee.time_base
        let seconds = { (ticks: Int64) -> Double? in
            ticks == arcapture_av_no_timestamp || timeBase.den == 0
                ? nil : Double(ticks) * Double(timeBase.num) / Double(timeBase.den)
        }
        let start = stream.pointee.start_time == arcapture_av_no_timestamp ? 0 : stream.pointee.start_time
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { return }
        var reached: Double = 0
        arcapture_av_clear_log()
        while true {
            let status = av_read_frame(context, packet)
            if status == arcapture_av_eof { return }
            guard status >= 0 else {
                throw .malformed(
                    file: path, location: String(format: "after %.2f s", reached),
                    problem: "the file ends or is damaged before its last packet: \(Self.failure(status))")
            }
            defer { av_packet_unref(packet) }
            guard Int(packet.pointee.stream_index) == index else { continue }
            let time = seconds(
                packet.pointee.pts == arcapture_av_no_timestamp ? packet.pointee.dts : packet.pointee.pts
            )
            .map { $0 - (seconds(start) ?? 0) }
            if let time { reached = time }
            let bytes =
                packet.pointee.data.map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(packet.pointee.size))) }
                ?? []
            body(
                MediaPacket(
                    time: time, duration: packet.pointee.duration > 0 ? seconds(packet.pointee.duration) : nil,
                    bytes: bytes))
        }
    }

    /// When the video was made, from the container: Apple's `com.apple.quicktime.creationdate`
    /// when it is there (an iPhone's, with its zone: `2019-06-01T12:34:56+0200`), else the
    /// `creation_time` (MP4's mvhd, Matroska's DateUTC), which is UTC by definition and often
    /// the camera's local time: a start to check, not to trust, as its source says.
    var creationTime: CaptureTime? {
        guard let context else { return nil }
        if let text = arcapture_av_format_tag(context, "com.apple.quicktime.creationdate").map({ String(cString: $0) }),
            let zone = Self.zoneSuffix(text), let date = UTCTime.parse(text)
        {
            return CaptureTime(date: date, source: .appleCreationDate(zone))
        }
        guard let text = arcapture_av_format_tag(context, "creation_time"),
            let date = UTCTime.parse(String(cString: text))
        else { return nil }
        return CaptureTime(date: date, source: .containerTime)
    }

    /// The zone an ISO 8601 time ends with (`+0200`, `-05:00`, `Z`), nil when it has none (a
    /// creationdate without one is no better than `creation_time`).
    static func zoneSuffix(_ text: String) -> String? {
        if text.hasSuffix("Z") || text.hasSuffix("z") { return "Z" }
        guard let time = text.firstIndex(where: { $0 == "T" || $0 == " " }),
            let sign = text[time...].lastIndex(where: { $0 == "+" || $0 == "-" })
        else { return nil }
        return String(text[sign...])
    }

    /// Reads only the streams in `indices` from now on; the demuxer skips the others' samples.
    func select(_ indices: Set<Int>) {
        guard let context else { return }
        for index in 0..<Int(context.pointee.nb_streams) {
            context.pointee.streams[index]?.pointee.discard =
                indices.contains(index) ? AVDISCARD_DEFAULT : AVDISCARD_ALL
        }
    }

    /// What FFmpeg logged about the failure (what it found, such as `moov atom not found`), with
    /// its sentence for the error code.
    static func failure(_ error: Int32) -> String {
        let logged = String(cString: arcapture_av_last_error())
        return logged.isEmpty ? text(error) : "\(logged) (\(text(error)))"
    }

    /// FFmpeg's sentence for an error code.
    static func text(_ error: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        arcapture_av_error_text(error, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
