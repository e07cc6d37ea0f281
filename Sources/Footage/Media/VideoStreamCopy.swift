import ArcaptureCore
import CFFmpeg
import Foundation

/// What a video file's writer takes from the file it annotates: the input's streams as they were
/// described (codec parameters, time bases, metadata, side data) and, as the reader reads them, the
/// packets of the streams that are copied untouched (audio, GoPro's telemetry), handed from the
/// reading thread to the writing one.
///
/// Made by ``FootageReader/copyStreams(into:)`` before the first frame is read. The description is
/// copied then into a format context of its own (never written), so the writer reads nothing the
/// demuxer is changing. Packets wait here between the reader and the writer: the reader runs at
/// most a few frames ahead of the writer, so that is a few frames' worth of audio.
///
/// `@unchecked Sendable`: the description is immutable once made; the queue is behind a lock.
public final class VideoStreamCopy: @unchecked Sendable {
    /// A stream of the input as the writer sees it.
    struct Stream {
        /// Its index in the input.
        var index: Int
        /// Its description, in this copy's own format context.
        var shadow: UnsafeMutablePointer<AVStream>
        /// Whether it is the video stream (re-encoded) rather than one copied.
        var isVideo: Bool
    }

    /// The streams the writer makes: the video first as in the file, the copied ones in file order.
    let streams: [Stream]
    /// Streams the output cannot hold, each a sentence (`stream 4 (fdsc data): MP4 cannot hold it`).
    public let notCopied: [String]
    /// The input's file name, for messages.
    let path: String
    /// The camera's boxes in the input's user data (GoPro's firmware, serials, settings), added to
    /// an MP4 or MOV output after its muxer has finished; nil when there are none or the output
    /// cannot hold them.
    let userData: MovieUserData?
    /// The input's major brand (`mp41`, GoPro's and most cameras'), kept by an MP4 output; nil for
    /// QuickTime files and other outputs, whose muxer's own brand is right.
    let majorBrand: String?
    /// Holds the description: streams, their parameters and metadata, the file's metadata.
    private var shadow: UnsafeMutablePointer<AVFormatContext>?
    private let queue = Locked(Queue())

    private struct Queue {
        var packets: [(packet: UnsafeMutablePointer<AVPacket>, stream: Int)] = []
        var received = 0
        var taken = 0
        /// Each stream's last decoding time kept, in its time base.
        var lastDecodingTimes: [Int: Int64] = [:]
        /// Packets of a joined file left out because they overlap the file before.
        var overlapping = 0
    }

    /// Describes `container`'s video stream `videoIndex` and every other stream that `format` can
    /// hold, copied from the input as they are; the video's display matrix is left out when the
    /// reader turns its frames upright (`turned`).
    init(container: MediaContainer, videoIndex: Int, format: VideoContainerFormat, turned: Bool) throws(InputFileError)
    {
        path = container.path
        guard let input = container.context, let shadow = avformat_alloc_context() else {
            throw .unreadable(file: container.path, reason: "out of memory for FFmpeg")
        }
        self.shadow = shadow
        let muxer = av_guess_format(format.muxerName, nil, nil)
        av_dict_copy(&shadow.pointee.metadata, input.pointee.metadata, 0)
        var streams: [Stream] = []
        var notCopied: [String] = []
        for described in container.streams {
            guard let stream = input.pointee.streams[described.index], let parameters = stream.pointee.codecpar
            else { continue }
            let isVideo = described.index == videoIndex
            if !isVideo {
                let what =
                    "stream \(described.index) (\(described.codecTag.isEmpty ? described.codecName : described.codecTag) \(described.kind))"
                if described.kind == .video {
                    notCopied.append("\(what): only the first video stream is written")
                    continue
                }
                // Data tracks FFmpeg knows no codec for (GoPro's timecode and SOS tracks) are
                // refused by every muxer; a timecode reappears from the video's metadata. GoPro's
                // telemetry goes into MOV too, whose muxer writes it though it does not list it.
                let telemetry = described.codecTag == "gpmd" && format != .matroska
                let accepted = muxer.map { avformat_query_codec($0, parameters.pointee.codec_id, FF_COMPLIANCE_NORMAL) }
                guard parameters.pointee.codec_id != AV_CODEC_ID_NONE, telemetry || accepted == 1 else {
                    if described.codecTag == "tmcd", let timecode = Self.timecode(of: input, videoIndex: videoIndex) {
                        // MP4's and MOV's muxers write a timecode track of their own from the
                        // video's timecode; Matroska keeps it as the video's TIMECODE tag.
                        if format == .matroska {
                            notCopied.append(
                                "\(what): Matroska has no timecode track; its start, \(timecode), is kept as the "
                                    + "video's TIMECODE tag")
                        }
                        continue
                    }
                    notCopied.append("\(what): \(format.displayName) cannot hold it")
                    continue
                }
            }
            guard let copy = avformat_new_stream(shadow, nil),
                avcodec_parameters_copy(copy.pointee.codecpar, parameters) >= 0,
                arcapture_av_copy_side_data(copy, stream, isVideo && turned ? 0 : 1) >= 0
            else {
                throw .unreadable(file: container.path, reason: "out of memory for FFmpeg")
            }
            copy.pointee.time_base = stream.pointee.time_base
            copy.pointee.avg_frame_rate = stream.pointee.avg_frame_rate
            copy.pointee.r_frame_rate = stream.pointee.r_frame_rate
            copy.pointee.sample_aspect_ratio = stream.pointee.sample_aspect_ratio
            copy.pointee.disposition = stream.pointee.disposition
            av_dict_copy(&copy.pointee.metadata, stream.pointee.metadata, 0)
            let entry = Stream(index: described.index, shadow: copy, isVideo: isVideo)
            if isVideo { streams.insert(entry, at: 0) } else { streams.append(entry) }
        }
        self.streams = streams
        self.notCopied = notCopied
        // FFmpeg's demuxer for the ISO family (MP4, MOV, 3GP) is named "mov,mp4,m4a,3gp,3g2,mj2".
        let demuxer = input.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
        let isQuickTime = demuxer.split(separator: ",").contains("mov")
        userData = format == .matroska || !isQuickTime ? nil : MovieUserData(readingFileAt: container.path)
        let brand = av_dict_get(input.pointee.metadata, "major_brand", nil, 0).flatMap {
            String(cString: $0.pointee.value)
        }
        majorBrand =
            format == .mp4 && isQuickTime ? brand.flatMap { $0.utf8.count == 4 && $0 != "qt  " ? $0 : nil } : nil
    }

    /// The timecode of the video stream `videoIndex` of `input` (or of the file), when it has one.
    private static func timecode(of input: UnsafeMutablePointer<AVFormatContext>, videoIndex: Int) -> String? {
        let stream = input.pointee.streams[videoIndex]
        let entry =
            av_dict_get(stream?.pointee.metadata, "timecode", nil, 0)
            ?? av_dict_get(input.pointee.metadata, "timecode", nil, 0)
        return entry.flatMap { String(cString: $0.pointee.value) }
    }

    deinit {
        queue.withLock { queue in
            for item in queue.packets { Self.release(item.packet) }
        }
        avformat_free_context(shadow)
    }

    /// The input's video stream, as described.
    var video: UnsafeMutablePointer<AVStream>? { streams.first(where: \.isVideo)?.shadow }

    /// The input streams whose packets are copied.
    var copiedIndices: Set<Int> { Set(streams.filter { !$0.isVideo }.map(\.index)) }

    /// The file's metadata (`creation_time`, the camera's make), owned by this copy.
    var formatMetadata: OpaquePointer? { shadow?.pointee.metadata }

    /// Frees a packet ``take(upTo:)`` returned.
    static func release(_ packet: UnsafeMutablePointer<AVPacket>) {
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
    }

    /// Keeps a reference to `packet` (of a copied stream) for the writer, its times moved
    /// `shift` seconds later (a file that continues a recording: ``VideoChapters``); the reading
    /// thread's packet is left as it was. A moved packet that would not come after its stream's
    /// last one (a file's audio that overlaps the next file's by a few milliseconds) is left out
    /// and counted in ``overlappingPackets``: a muxer refuses times that go back.
    func receive(_ packet: UnsafePointer<AVPacket>, shiftedBy shift: Double = 0) {
        let index = Int(packet.pointee.stream_index)
        // A stream not copied (a timecode track the demuxer reads regardless) is not kept.
        guard let copied = streams.first(where: { $0.index == index && !$0.isVideo }),
            let clone = av_packet_clone(packet)
        else { return }
        if shift != 0, case let base = copied.shadow.pointee.time_base, base.num > 0 {
            let ticks = Int64((shift * Double(base.den) / Double(base.num)).rounded())
            if clone.pointee.pts != arcapture_av_no_timestamp { clone.pointee.pts += ticks }
            if clone.pointee.dts != arcapture_av_no_timestamp { clone.pointee.dts += ticks }
        }
        let dts = clone.pointee.dts == arcapture_av_no_timestamp ? clone.pointee.pts : clone.pointee.dts
        let kept = queue.withLock { queue -> Bool in
            if shift != 0, dts != arcapture_av_no_timestamp, let last = queue.lastDecodingTimes[index], dts <= last {
                queue.overlapping += 1
                return false
            }
            if dts != arcapture_av_no_timestamp { queue.lastDecodingTimes[index] = dts }
            queue.packets.append((clone, index))
            queue.received += 1
            return true
        }
        if !kept { Self.release(clone) }
    }

    /// Packets of joined files left out because they overlapped the file before (see
    /// ``receive(_:shiftedBy:)``).
    var overlappingPackets: Int { queue.withLock { $0.overlapping } }

    /// How many packets have been received so far: a frame's mark, for ``take(upTo:)``.
    var received: Int { queue.withLock { $0.received } }

    /// Removes and returns the packets received before `mark` (all of them when nil), oldest first.
    /// The caller frees them.
    func take(upTo mark: Int?) -> [(packet: UnsafeMutablePointer<AVPacket>, stream: Int)] {
        queue.withLock { queue in
            let count = min(queue.packets.count, mark.map { max(0, $0 - queue.taken) } ?? queue.packets.count)
            let taken = Array(queue.packets.prefix(count))
            queue.packets.removeFirst(count)
            queue.taken += count
            return taken
        }
    }
}
