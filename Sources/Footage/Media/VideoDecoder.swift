import ArcaptureCore
import CFFmpeg
import Foundation
import JPEGKit

/// Decodes a video file's first video stream (H.264, H.265, MJPEG, VP9…: whatever Debian's
/// libavcodec decodes) straight into the YCbCr planes the compositor draws on: no RGB round trip,
/// the range kept as the file has it (limited for most video, full for GoPro's `yuvj420p`).
/// Each frame comes with its own presentation time, so variable frame rates survive. Not
/// thread-safe: one reader.
///
/// A packet the decoder refuses (damage) is skipped and counted, and the first few are noted with
/// their time; the frames after it decode as the codec allows.
final class VideoDecoder {
    /// One decoded frame.
    struct Frame {
        /// The planes (from the reader's pool).
        var image: YCbCrImage
        /// When it is presented, in seconds from the stream's start.
        var time: Double?
        /// The same in the stream's own time base, as the file has it (a video written from these
        /// frames keeps it tick for tick).
        var timestamp: Int64?
        /// How many copied packets the reader had met when the frame came out (see
        /// ``VideoStreamCopy``).
        var copyMark: Int?
    }

    /// The stream decoded.
    let stream: MediaContainer.Stream
    /// Frame width and height in pixels, as shown (a turned picture's stored ones swapped).
    let width: Int
    let height: Int
    /// How the stored picture is turned to show it: its display matrix (a phone's portrait video
    /// is stored landscape and said to turn 90°). Frames come out upright, as photos do, so the
    /// overlay is drawn the way the picture is seen; a video written from them needs no matrix.
    let orientation: ImageOrientation
    /// The frames' size and layout as stored, before they are turned.
    private let storedWidth: Int
    private let storedHeight: Int
    private let storedLayout: ChromaSubsampling
    /// How the decoder's frames hold their samples (8-bit planes, 10-bit planes, NV12).
    private let sampleLayout: DecodedSampleLayout
    /// Where packets of the streams copied into a written video go; nil when none are copied.
    private(set) var streamCopy: VideoStreamCopy?
    /// The planes' chroma layout.
    let subsampling: ChromaSubsampling
    /// Whether the samples use the full 0–255 range (JPEG's) rather than video's 16–235.
    let fullRange: Bool
    /// The average frame rate the container states as a fraction, nil when it states none.
    let frameRate: (numerator: Int, denominator: Int)?
    /// The frames the container says the stream holds (0 when it does not say).
    let frameCount: Int
    /// The container's `creation_time`, read when the decoder opened.
    let creationTime: CaptureTime?
    /// The threads libavcodec decodes with (what it chose, when asked to choose).
    let threads: Int
    /// Damage met so far, each naming its time.
    private(set) var notes: [String] = []
    /// Packets the decoder refused.
    private(set) var damagedPackets = 0

    private let container: MediaContainer
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let timeBase: Double
    private let startTicks: Int64
    /// The stream's time base as FFmpeg states it.
    private let rationalTimeBase: AVRational
    /// Where this file lies in a recording joined from several (see ``VideoChapters``); nil for a
    /// file read alone.
    private var placement: Placement?
    private var flushing = false
    private var finished = false

    /// Notes kept about damage; the rest are only counted.
    static let noteLimit = 5

    /// Opens a decoder for the first video stream of `container`, with `threads` of its own (0:
    /// libavcodec picks).
    ///
    /// - Throws: `InputFileError/malformed(file:location:problem:)` when the file has no video
    ///   stream, no decoder for its codec, or a pixel format arcapture does not draw on yet.
    init(container: MediaContainer, threads requested: Int = 0) throws(InputFileError) {
        self.container = container
        creationTime = container.creationTime
        let path = container.path
        guard let context = container.context,
            let found = container.streams.first(where: { $0.kind == .video }),
            let avStream = context.pointee.streams[found.index], let parameters = avStream.pointee.codecpar
        else {
            let kinds = container.streams.map { "\($0.kind) \($0.codecName)" }.joined(separator: ", ")
            throw .malformed(file: path, location: nil, problem: "no video stream (its streams: \(kinds))")
        }
        stream = found
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .malformed(
                file: path, location: "stream \(found.index)",
                problem: "FFmpeg here has no decoder for \(found.codecName) video")
        }
        let format = AVPixelFormat(rawValue: parameters.pointee.format)
        guard let (samples, layout) = DecodedSampleLayout.of(format) else {
            let name = av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "unknown"
            throw .malformed(
                file: path, location: "stream \(found.index)",
                problem: "\(found.codecName) video in pixel format \(name), which arcapture does not draw on yet "
                    + "(8-bit or 10-bit YUV 4:2:0, 4:2:2, 4:4:4, NV12 or grey)")
        }
        sampleLayout = samples
        // A mirrored matrix (rare: some front cameras) is taken for its turn alone.
        var mirrored: Int32 = 0
        orientation =
            switch (360 - arcapture_av_rotation(avStream, &mirrored)) % 360 {
            case 90: .right
            case 180: .down
            case 270: .left
            default: .up
            }
        storedLayout = layout
        storedWidth = Int(parameters.pointee.width)
        storedHeight = Int(parameters.pointee.height)
        // 4:2:2 turned a quarter is 4:4:0, which is drawn on, and written, as it is.
        subsampling =
            orientation.swapsAxes && layout == .s422 ? .s440 : orientation.swapsAxes && layout == .s411 ? .s444 : layout
        width = Int(orientation.swapsAxes ? parameters.pointee.height : parameters.pointee.width)
        height = Int(orientation.swapsAxes ? parameters.pointee.width : parameters.pointee.height)
        fullRange =
            parameters.pointee.color_range == AVCOL_RANGE_JPEG
            || [AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P].contains(format)
        let rate = avStream.pointee.avg_frame_rate
        frameRate = rate.num > 0 && rate.den > 0 ? (Int(rate.num), Int(rate.den)) : nil
        frameCount = Int(avStream.pointee.nb_frames)
        let base = avStream.pointee.time_base
        timeBase = base.den == 0 ? 0 : Double(base.num) / Double(base.den)
        rationalTimeBase = base
        startTicks = avStream.pointee.start_time == arcapture_av_no_timestamp ? 0 : avStream.pointee.start_time
        codec = avcodec_alloc_context3(decoder)
        packet = av_packet_alloc()
        frame = av_frame_alloc()
        guard let codec, packet != nil, frame != nil else {
            throw .unreadable(file: path, reason: "out of memory for FFmpeg's decoder")
        }
        var status = avcodec_parameters_to_context(codec, parameters)
        // Threads: the decoder's own (0: libavcodec picks, one per core and one more), beside the
        // annotator's workers. Each of its frame threads holds frames of its own.
        codec.pointee.thread_count = Int32(clamping: max(0, requested))
        if status >= 0 { status = avcodec_open2(codec, decoder, nil) }
        threads = Int(codec.pointee.thread_count)
        guard status >= 0 else {
            throw .malformed(
                file: path, location: "stream \(found.index)",
                problem: "the \(found.codecName) decoder does not open: \(MediaContainer.failure(status))")
        }
        container.select([found.index])
    }

    deinit {
        avcodec_free_context(&codec)
        av_packet_free(&packet)
        av_frame_free(&frame)
    }

    /// The next frame in presentation order, its planes taken from `pool`; nil at the end.
    func next(pool: FrameBufferPool) -> Frame? {
        guard let codec, let packet, let frame, let context = container.context else { return nil }
        while !finished {
            let received = avcodec_receive_frame(codec, frame)
            if received >= 0 {
                defer { av_frame_unref(frame) }
                var image = copy(frame, pool: pool)
                if orientation != .up {
                    let stored = image
                    image = stored.turnedUpright(orientation)
                    pool.give(stored)
                }
                return Frame(
                    image: image, time: time(of: frame), timestamp: timestamp(of: frame), copyMark: streamCopy?.received
                )
            }
            if received == arcapture_av_eof {
                finished = true
                return nil
            }
            if received != arcapture_av_again {
                damaged(at: nil, MediaContainer.failure(received))
                continue
            }
            if flushing {  // the decoder wants more, and there is no more
                finished = true
                return nil
            }
            let read = av_read_frame(context, packet)
            if read < 0 {
                if read != arcapture_av_eof {
                    notes.append("\(container.path): reading stops early: \(MediaContainer.failure(read))")
                }
                flushing = true
                _ = avcodec_send_packet(codec, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard Int(packet.pointee.stream_index) == stream.index else {
                streamCopy?.receive(packet, shiftedBy: placement?.offset ?? 0)
                continue
            }
            let sent = avcodec_send_packet(codec, packet)
            if sent < 0 && sent != arcapture_av_again {
                damaged(at: seconds(packet.pointee.pts), MediaContainer.failure(sent))
            }
        }
        return nil
    }

    private func damaged(at time: Double?, _ why: String) {
        damagedPackets += 1
        guard notes.count < Self.noteLimit else { return }
        let when = time.map { String(format: "at %.2f s", $0) } ?? "after the last good frame"
        notes.append("\(container.path): a damaged video packet \(when) is skipped (\(why))")
    }

    private func seconds(_ ticks: Int64) -> Double? {
        ticks == arcapture_av_no_timestamp ? nil : Double(ticks - startTicks) * timeBase
    }

    /// The frame's time in seconds from the stream's start (the first file's, when joined).
    private func time(of frame: UnsafeMutablePointer<AVFrame>) -> Double? {
        guard let ticks = ownTimestamp(of: frame) else { return nil }
        guard let placement else { return seconds(ticks) }
        return Double(ticks) * timeBase + placement.offset - placement.firstStart
    }

    /// The frame's timestamp in the stream's time base (the first file's, when joined).
    private func timestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Int64? {
        guard let ticks = ownTimestamp(of: frame) else { return nil }
        guard let placement else { return ticks }
        let base = placement.firstTimeBase
        return av_rescale_q(ticks, rationalTimeBase, base)
            + Int64((placement.offset * Double(base.den) / Double(max(1, base.num))).rounded())
    }

    private func ownTimestamp(of frame: UnsafeMutablePointer<AVFrame>) -> Int64? {
        let best = frame.pointee.best_effort_timestamp
        let found = best == arcapture_av_no_timestamp ? frame.pointee.pts : best
        return found == arcapture_av_no_timestamp ? nil : found
    }

    /// Where a file lies in a joined recording.
    private struct Placement {
        /// Seconds added to its timestamps (``VideoChapters/Chapter/offset``).
        var offset: Double
        /// The first file's video time base and start, in seconds.
        var firstTimeBase: AVRational
        var firstStart: Double
    }

    /// Where a joined recording's timeline starts: this file's video time base and start, for the
    /// files that continue it (``continueRecording(from:at:copyingInto:)``).
    var timelineStart: TimelineStart {
        TimelineStart(timeBase: rationalTimeBase, seconds: Double(startTicks) * timeBase)
    }

    /// Where a joined recording's timeline starts (its first file's video).
    struct TimelineStart {
        /// The video's time base, which the joined frames' timestamps are in.
        var timeBase: AVRational
        /// Its first timestamp, in seconds.
        var seconds: Double
    }

    /// Places this file, which continues a recording whose first file's timeline starts at
    /// `start`, `offset` seconds along it (``VideoChapters/Chapter/offset``): its frames' times
    /// and timestamps come out on that timeline, and its other streams' packets go into `copy`
    /// (the first file's, when a video is written) moved as far. Call before the first frame.
    func continueRecording(
        from start: TimelineStart, at offset: Double, copyingInto copy: VideoStreamCopy?
    ) {
        placement = Placement(offset: offset, firstTimeBase: start.timeBase, firstStart: start.seconds)
        if let copy {
            streamCopy = copy
            container.select(copy.copiedIndices.union([stream.index]))
        }
    }

    /// Keeps the packets of every other stream that `format` can hold, for a video written from
    /// this one (see ``VideoStreamCopy``); call before the first frame.
    ///
    /// - Throws: `InputFileError` when FFmpeg runs out of memory.
    func copyStreams(into format: VideoContainerFormat) throws(InputFileError) -> VideoStreamCopy {
        if let streamCopy { return streamCopy }
        let made = try VideoStreamCopy(
            container: container, videoIndex: stream.index, format: format, turned: orientation != .up)
        streamCopy = made
        container.select(made.copiedIndices.union([stream.index]))
        return made
    }

    /// The frame's planes row by row into an image of the pool (libavcodec pads its rows): 8-bit
    /// planes copied, 10-bit ones rounded to 8 bits, NV12's chroma pairs split.
    private func copy(_ frame: UnsafeMutablePointer<AVFrame>, pool: FrameBufferPool) -> YCbCrImage {
        var image = pool.take(width: storedWidth, height: storedHeight, subsampling: storedLayout)
        let sources = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
        let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2]
        for index in image.planes.indices where index < 3 {
            // The plane's geometry as numbers: a copy of the plane itself would hold a second
            // reference to its samples, and writing them would then copy the whole plane
            // (copy-on-write), a fresh allocation per plane per frame.
            let (planeWidth, planeHeight, planeStride) = (
                image.planes[index].width, image.planes[index].height, image.planes[index].stride
            )
            let shift = index == 0 ? 0 : verticalShift
            let rows = min(planeHeight, (Int(frame.pointee.height) + (1 << shift) - 1) >> shift)
            // NV12's luma is a plane like any 8-bit one; both its chroma planes come from the
            // frame's second, every other byte.
            var layout = sampleLayout
            var sourceIndex = index
            if case .interleavedChroma = sampleLayout {
                if index == 0 { layout = .planar } else { sourceIndex = 1 }
            }
            guard let source = sources[sourceIndex] else { continue }
            let sourceStride = Int(strides[sourceIndex])
            image.planes[index].bytes.withUnsafeMutableBufferPointer { target in
                guard let base = target.baseAddress else { return }
                switch layout {
                case .planar:
                    let columns = min(planeWidth, sourceStride)
                    for row in 0..<rows {
                        (base + row * planeStride).update(from: source + row * sourceStride, count: columns)
                    }
                case .planar10:
                    let columns = min(planeWidth, sourceStride / 2)
                    for row in 0..<rows {
                        let line = source + row * sourceStride
                        let out = base + row * planeStride
                        for column in 0..<columns {
                            let sample = UInt16(line[2 * column]) | UInt16(line[2 * column + 1]) << 8
                            out[column] = DecodedSampleLayout.eightBits(sample)
                        }
                    }
                case .interleavedChroma(let crFirst):
                    // Plane 1 is Cb, plane 2 Cr: NV12 holds Cb first in each pair, NV21 Cr.
                    let offset = (index == 1) == crFirst ? 1 : 0
                    let columns = min(planeWidth, sourceStride / 2)
                    for row in 0..<rows {
                        let line = source + row * sourceStride
                        let out = base + row * planeStride
                        for column in 0..<columns { out[column] = line[2 * column + offset] }
                    }
                }
            }
        }
        return image
    }

    /// How many times chroma rows are halved.
    private var verticalShift: Int { storedLayout == .s420 || storedLayout == .s440 ? 1 : 0 }
}
