import ArcaptureCore
import CFFmpeg
import Foundation
import JPEGKit

/// Writes annotated frames as a video file (MP4, MOV, Matroska) through FFmpeg's libraries: H.264
/// by libx264 from the planes the compositor drew on (no RGB round trip, the range kept), or
/// Motion JPEG from the JPEGs the workers encoded. The input's other streams (audio, GoPro's
/// telemetry) are copied packet for packet, untouched; every frame keeps its presentation time
/// (variable frame rates survive), and the file's and streams' metadata (`creation_time`,
/// handler names, language, the timecode) go along.
///
/// The encoder opens at the first frame, whose size and layout the stream takes; a later frame of
/// another size is an error (a video stream cannot change size). Not thread-safe: one writer, on
/// the thread that delivers frames in order.
public final class VideoFileWriter {
    /// The file written (a temporary twin of the output, renamed when the run ends).
    private let path: String
    /// The output's name, for messages.
    private let name: String
    private let format: VideoContainerFormat
    private let encoding: VideoEncoding
    private let source: VideoStreamCopy?
    private let frameRate: (numerator: Int, denominator: Int)
    private let fullRange: Bool
    private var output: UnsafeMutablePointer<AVFormatContext>?
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// Output stream for each copied input stream's index.
    private var copiedStreams: [Int: (stream: UnsafeMutablePointer<AVStream>, timeBase: AVRational)] = [:]
    private var videoStream: UnsafeMutablePointer<AVStream>?
    /// The video's time base: the input's (so timestamps are kept tick for tick) or 1/rate.
    private var timeBase = AVRational(num: 1, den: 30)
    private var size: (width: Int, height: Int, subsampling: ChromaSubsampling)?
    private var lastTimestamp: Int64?
    private var finished = false
    /// Reads an MJPEG frame's size.
    private var jpegReader: JPEGDecoder?
    /// Frames written.
    public private(set) var frames = 0
    /// Frames whose time was not after the one before, moved one tick on (an encoder takes only
    /// increasing times).
    public private(set) var retimedFrames = 0

    /// Prepares the file; nothing is written until the first frame.
    ///
    /// - Parameters:
    ///   - path: the file to write (created or truncated).
    ///   - name: the output's name, for messages.
    ///   - format: the container.
    ///   - encoding: how frames are encoded.
    ///   - source: the input video's streams (their metadata and copied packets); nil when the
    ///     footage is not a video file (JPEGs, Y4M), whose frames are then timed by `frameRate`.
    ///   - frameRate: the rate stated, and the clock of frames that come without a timestamp.
    ///   - fullRange: whether the planes use the full 0–255 range (said in the stream, as the input said).
    /// - Throws: ``VideoWriteError`` when the muxer cannot be made.
    public init(
        path: String, name: String, format: VideoContainerFormat, encoding: VideoEncoding, source: VideoStreamCopy?,
        frameRate: (numerator: Int, denominator: Int), fullRange: Bool
    ) throws(VideoWriteError) {
        self.path = path
        self.name = name
        self.format = format
        self.encoding = encoding
        self.source = source
        self.frameRate = frameRate.numerator > 0 && frameRate.denominator > 0 ? frameRate : (30, 1)
        self.fullRange = fullRange
        arcapture_av_keep_log()
        var made: UnsafeMutablePointer<AVFormatContext>?
        let status = avformat_alloc_output_context2(&made, nil, format.muxerName, path)
        guard status >= 0, let made else {
            throw VideoWriteError(
                path: name, problem: "no \(format.displayName) muxer: \(Self.failure(status))", cannotStart: true)
        }
        output = made
        packet = av_packet_alloc()
        frame = av_frame_alloc()
    }

    deinit {
        if let output, output.pointee.pb != nil { avio_closep(&output.pointee.pb) }
        avcodec_free_context(&encoder)
        av_frame_free(&frame)
        av_packet_free(&packet)
        avformat_free_context(output)
        for leftover in source?.take(upTo: nil) ?? [] { VideoStreamCopy.release(leftover.packet) }
    }

    /// Encodes one frame's planes (H.264) at `timestamp` (in the input video's time base; nil for
    /// footage without one: the next tick of the frame rate), after the copied packets the reader
    /// met before it (`mark`, from ``FootageFrame/streamCopyMark``).
    ///
    /// - Throws: ``VideoWriteError`` when the encoder or the disk fails, or the size changed.
    public func write(_ image: YCbCrImage, timestamp: Int64?, mark: Int?) throws(VideoWriteError) {
        guard case .h264 = encoding else {
            throw VideoWriteError(path: name, problem: "an MJPEG video is written from JPEGs, not planes")
        }
        // 4:2:0, whatever the footage's layout: it is the only H.264 that browsers, phones and
        // most players decode (a 4:2:2 camera's High 4:2:2 stream plays in ffplay and VLC only),
        // as `ffmpeg -pix_fmt yuv420p` is added for.
        let image = image.subsampling == .s420 || image.subsampling == .gray ? image : image.resampled(to: .s420)
        try encode(width: image.width, height: image.height, subsampling: image.subsampling, timestamp, mark) {
            fill($0, from: image)
        }
    }

    /// Encodes one overlay frame (drawing and alpha, in the layout the encoding takes:
    /// ``VideoEncoding/pictureLayout``), like ``write(_:timestamp:mark:)-(YCbCrImage,_,_)``. An overlay output copies
    /// none of the input's other streams: the editor has them in the footage it lays this over.
    ///
    /// - Throws: ``VideoWriteError`` when the encoder or the disk fails, or the size or layout changed.
    public func write(_ picture: VideoPicture, timestamp: Int64?, mark: Int?) throws(VideoWriteError) {
        guard let layout = encoding.pictureLayout, layout == picture.layout else {
            throw VideoWriteError(
                path: name, problem: "frame \(frames) is laid out for another encoder than \(encoding.codecName)")
        }
        // The size's check is the planes' (4:4:4 stands for "no chroma to average" here).
        try encode(width: picture.width, height: picture.height, subsampling: .s444, timestamp, mark) {
            fill($0, from: picture)
        }
    }

    /// Starts the file at the first frame, checks the size, writes the copied packets before
    /// `mark`, then fills the encoder's frame (`filling`) and encodes it at `timestamp`.
    private func encode(
        width: Int, height: Int, subsampling: ChromaSubsampling, _ timestamp: Int64?, _ mark: Int?,
        filling: (UnsafeMutablePointer<AVFrame>) -> Void
    ) throws(VideoWriteError) {
        try start(width: width, height: height, subsampling: subsampling)
        try checkSize(width, height, subsampling)
        try writeCopied(upTo: mark)
        guard let encoder, let frame else { return }
        var status = av_frame_make_writable(frame)
        guard status >= 0 else { throw failed("no memory for a frame", status) }
        filling(frame)
        frame.pointee.pts = nextTimestamp(timestamp)
        status = avcodec_send_frame(encoder, frame)
        guard status >= 0 else { throw failed("the encoder refused frame \(frames)", status) }
        frames += 1
        try drainEncoder()
    }

    /// Writes one frame's JPEG as it is (MJPEG), like ``write(_:timestamp:mark:)-(YCbCrImage,_,_)``.
    ///
    /// - Throws: ``VideoWriteError`` when the disk fails, the JPEG has no readable size, or the
    ///   size changed.
    public func write(jpeg: [UInt8], timestamp: Int64?, mark: Int?) throws(VideoWriteError) {
        guard case .mjpeg = encoding else {
            throw VideoWriteError(path: name, problem: "an H.264 video is written from planes, not JPEGs")
        }
        if jpegReader == nil { jpegReader = try? JPEGDecoder() }
        let read = jpeg.withUnsafeBytes { bytes in Result { () throws(JPEGError) in try jpegReader?.readHeader(bytes) }
        }
        guard case .success(let found) = read, let header = found, !jpeg.isEmpty else {
            throw VideoWriteError(path: name, problem: "frame \(frames) is not a JPEG with a size")
        }
        try start(width: header.width, height: header.height, subsampling: header.subsampling)
        try checkSize(header.width, header.height, header.subsampling)
        try writeCopied(upTo: mark)
        guard let packet, let videoStream, av_new_packet(packet, Int32(jpeg.count)) >= 0, let data = packet.pointee.data
        else {
            throw VideoWriteError(path: name, problem: "no memory for a packet")
        }
        jpeg.withUnsafeBufferPointer { bytes in
            if let base = bytes.baseAddress { data.update(from: base, count: bytes.count) }
        }
        packet.pointee.pts = nextTimestamp(timestamp)
        packet.pointee.dts = packet.pointee.pts
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        packet.pointee.stream_index = videoStream.pointee.index
        av_packet_rescale_ts(packet, timeBase, videoStream.pointee.time_base)
        frames += 1
        let status = av_interleaved_write_frame(output, packet)
        guard status >= 0 else { throw failed("writing frame \(frames - 1) failed", status) }
    }

    /// Flushes the encoder, writes the copied packets left (all of them when `copyingRest`: the
    /// footage was read to its end; none when it was stopped, so the file ends with its last
    /// frame) and the container's index, and closes the file.
    ///
    /// - Throws: ``VideoWriteError`` when no frame was written or writing fails.
    public func finish(copyingRest: Bool) throws(VideoWriteError) {
        guard !finished else { return }
        finished = true
        guard let output, videoStream != nil else {
            throw VideoWriteError(path: name, problem: "no frame to write")
        }
        if let encoder {
            let status = avcodec_send_frame(encoder, nil)
            guard status >= 0 else { throw failed("the encoder could not be flushed", status) }
            try drainEncoder()
        }
        if copyingRest {
            try writeCopied(upTo: nil)
        } else {
            for leftover in source?.take(upTo: nil) ?? [] { VideoStreamCopy.release(leftover.packet) }
        }
        var status = av_write_trailer(output)
        guard status >= 0 else { throw failed("the \(format.displayName) index could not be written", status) }
        status = avio_closep(&output.pointee.pb)
        guard status >= 0 else { throw failed("closing the file failed", status) }
        if let userData = source?.userData, !encoding.hasAlpha {
            do {
                if let added = try userData.add(toFileAt: path) {
                    userDataAdded = added
                } else {
                    userDataLeftOut = userData.types
                }
            } catch {
                throw VideoWriteError(path: name, problem: "the camera's user data could not be added: \(error)")
            }
        }
    }

    /// The types of the input's user-data boxes added to the file (GoPro's `FIRM`, `LENS`, `CAME`…),
    /// once finished.
    public private(set) var userDataAdded: [String] = []
    /// The types of the input's user-data boxes that could not be added (the file did not end with
    /// its index, as FFmpeg writes it), once finished.
    public private(set) var userDataLeftOut: [String] = []

    // MARK: - Starting

    /// Opens the encoder and the file at the first frame, whose size the stream takes.
    private func start(width: Int, height: Int, subsampling: ChromaSubsampling) throws(VideoWriteError) {
        guard size == nil, let output else { return }
        size = (width, height, subsampling)
        let inputVideo = source?.video
        timeBase =
            inputVideo.map { $0.pointee.time_base }
            ?? AVRational(num: Int32(frameRate.denominator), den: Int32(frameRate.numerator))
        guard let stream = avformat_new_stream(output, nil) else {
            throw VideoWriteError(path: name, problem: "no memory")
        }
        videoStream = stream
        stream.pointee.time_base = timeBase
        switch encoding {
        case .h264(let crf, let preset, let parameters):
            try openEncoder(
                width: width, height: height, subsampling: subsampling, crf: crf, preset: preset,
                parameters: parameters)
        case .proRes4444, .quickTimeAnimation, .png, .vp9:
            try openAlphaEncoder(width: width, height: height)
        case .mjpeg:
            guard let parameters = stream.pointee.codecpar else {
                throw VideoWriteError(path: name, problem: "no memory", cannotStart: true)
            }
            parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
            parameters.pointee.codec_id = AV_CODEC_ID_MJPEG
            parameters.pointee.width = Int32(width)
            parameters.pointee.height = Int32(height)
            parameters.pointee.format = Self.pixelFormat(for: subsampling, fullRange: true).rawValue
            parameters.pointee.color_range = AVCOL_RANGE_JPEG
        }
        // An encoder's stream is described by its context (MJPEG's, whose packets are the JPEGs
        // themselves, above).
        if let encoder {
            let status = avcodec_parameters_from_context(stream.pointee.codecpar, encoder)
            guard status >= 0 else { throw failed("the encoder's parameters", status, starting: true) }
        }
        if let inputVideo {
            av_dict_copy(&stream.pointee.metadata, inputVideo.pointee.metadata, 0)
            // The encoder is ours now: a vendor's name for theirs would be wrong.
            av_dict_set(&stream.pointee.metadata, "encoder", nil, 0)
            // Nor is an overlay the camera's video, whose handler ("GoPro AVC") names it.
            if encoding.hasAlpha { av_dict_set(&stream.pointee.metadata, "handler_name", "arcapture overlay", 0) }
            stream.pointee.sample_aspect_ratio = inputVideo.pointee.sample_aspect_ratio
            stream.pointee.codecpar.pointee.sample_aspect_ratio = inputVideo.pointee.sample_aspect_ratio
            stream.pointee.avg_frame_rate = inputVideo.pointee.avg_frame_rate
            stream.pointee.disposition = inputVideo.pointee.disposition
            _ = arcapture_av_copy_side_data(stream, inputVideo, 1)
        } else {
            stream.pointee.avg_frame_rate = AVRational(
                num: Int32(frameRate.numerator), den: Int32(frameRate.denominator))
        }
        try addCopiedStreams(to: output)
        if let metadata = source?.formatMetadata { av_dict_copy(&output.pointee.metadata, metadata, 0) }
        av_dict_set(&output.pointee.metadata, "encoder", nil, 0)
        var status = avio_open(&output.pointee.pb, path, AVIO_FLAG_WRITE)
        guard status >= 0 else { throw failed("cannot be opened for writing", status, starting: true) }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        // The camera's brand (GoPro's `mp41`) rather than the muxer's `isom`: some tools tell
        // cameras' files by it.
        if let brand = source?.majorBrand { av_dict_set(&options, "brand", brand, 0) }
        status = avformat_write_header(output, &options)
        guard status >= 0 else {
            throw failed("\(format.displayName) refuses these streams", status, starting: true)
        }
    }

    private func openEncoder(
        width: Int, height: Int, subsampling: ChromaSubsampling, crf: Double, preset: String, parameters: String?
    ) throws(VideoWriteError) {
        let pixelFormat = Self.pixelFormat(for: subsampling, fullRange: false)
        let (codec, context) = try makeEncoder("libx264", pixelFormat: pixelFormat, width: width, height: height)
        context.pointee.color_range = fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        if let input = source?.video?.pointee.codecpar {
            context.pointee.colorspace = input.pointee.color_space
            context.pointee.color_primaries = input.pointee.color_primaries
            context.pointee.color_trc = input.pointee.color_trc
            context.pointee.chroma_sample_location = input.pointee.chroma_location
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "crf", String(format: "%g", crf), 0)
        av_dict_set(&options, "preset", preset, 0)
        // x264's sliced threads (each frame cut into a slice per thread), before the caller's
        // parameters (which may say otherwise): its default frame threads do not write the same
        // stream run after run on this machine. `ffmpeg -c:v libx264 -crf 20 -preset veryfast` of
        // one Y4M (315 frames of 848x480, 2 cores): 16 runs each, the default and
        // `lookahead-threads=1` gave 2 different streams, `sliced-threads=1` and `threads=1` one;
        // annotate's MP4 of the GoPro sample differed in 1 run of 6 to 10, more often under load.
        // Sliced threads cost 5-10 % of the encoder's speed here (1.88-2.06 s against 1.75-1.81 s)
        // and no size (5,597,179 bytes against 5,601,403); output that depends on the machine's
        // load costs more: a view and annotate must write the same file, a fleet's shards the same
        // as one run (ViewMatchesAnnotateTests failed under scripts/test-under-load for it).
        let deterministic = "sliced-threads=1"
        av_dict_set(&options, "x264-params", parameters.map { deterministic + ":" + $0 } ?? deterministic, 0)
        arcapture_av_clear_log()
        let status = avcodec_open2(context, codec, &options)
        guard status >= 0 else {
            let given = parameters.map { ", x264 parameters \($0)" } ?? ""
            throw failed("libx264 does not open (crf \(crf), preset \(preset)\(given))", status, starting: true)
        }
        // libavcodec only warns of an x264 parameter it cannot use, and encodes without it.
        let refused = String(cString: arcapture_av_parameter_error())
        guard refused.isEmpty else {
            throw VideoWriteError(
                path: name, problem: "libx264 cannot use an x264 parameter given: \(refused)", cannotStart: true)
        }
        try allocateFrame(pixelFormat, width: width, height: height)
    }

    /// Finds encoder `codecName` and makes its context for frames of `width` × `height` in
    /// `pixelFormat`, in the video's time base, at the input's frame rate and aspect (or the
    /// stated rate), with the codec's own threads (libx264's frame threads, as many as it picks,
    /// beside the annotator's) and global headers where the container wants them.
    private func makeEncoder(_ codecName: String, pixelFormat: AVPixelFormat, width: Int, height: Int)
        throws(VideoWriteError) -> (UnsafePointer<AVCodec>, UnsafeMutablePointer<AVCodecContext>)
    {
        guard let codec = avcodec_find_encoder_by_name(codecName) else {
            throw VideoWriteError(
                path: name, problem: "FFmpeg here has no \(codecName) encoder (Debian's libavcodec has it)",
                cannotStart: true)
        }
        guard let context = avcodec_alloc_context3(codec) else {
            throw VideoWriteError(path: name, problem: "no memory for the encoder", cannotStart: true)
        }
        encoder = context
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = pixelFormat
        context.pointee.time_base = timeBase
        if let video = source?.video, let input = video.pointee.codecpar {
            context.pointee.sample_aspect_ratio = input.pointee.sample_aspect_ratio
            context.pointee.framerate = video.pointee.avg_frame_rate
        } else {
            context.pointee.framerate = AVRational(num: Int32(frameRate.numerator), den: Int32(frameRate.denominator))
        }
        context.pointee.thread_count = 0
        if let output, output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            context.pointee.flags |= arcapture_av_codec_flag_global_header
        }
        return (codec, context)
    }

    /// Gives the frame encoded into its buffers: `width` × `height` in `pixelFormat`.
    private func allocateFrame(_ pixelFormat: AVPixelFormat, width: Int, height: Int) throws(VideoWriteError) {
        guard let frame else { throw VideoWriteError(path: name, problem: "no memory for a frame", cannotStart: true) }
        frame.pointee.format = pixelFormat.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        let status = av_frame_get_buffer(frame, 0)
        guard status >= 0 else { throw failed("no memory for a frame", status, starting: true) }
    }

    /// Opens an overlay's encoder (``VideoEncoding/hasAlpha``) for frames of `width` × `height`.
    ///
    /// Its YCbCr layouts hold BT.601 colours in limited range, as the compositor converts a
    /// style's sRGB (the stream says so, so that an editor turns them back into the style's
    /// colours); the RGB layouts hold the style's colours themselves.
    private func openAlphaEncoder(width: Int, height: Int) throws(VideoWriteError) {
        let (codecName, pixelFormat): (String, AVPixelFormat)
        switch encoding.pictureLayout {
        case .yuva444p10: (codecName, pixelFormat) = ("prores_ks", AV_PIX_FMT_YUVA444P10LE)
        case .yuva420p: (codecName, pixelFormat) = ("libvpx-vp9", AV_PIX_FMT_YUVA420P)
        case .argb: (codecName, pixelFormat) = ("qtrle", AV_PIX_FMT_ARGB)
        case .rgba: (codecName, pixelFormat) = ("png", AV_PIX_FMT_RGBA)
        case nil: return
        }
        let (codec, context) = try makeEncoder(codecName, pixelFormat: pixelFormat, width: width, height: height)
        if let frame, encoding.pictureLayout == .yuva444p10 || encoding.pictureLayout == .yuva420p {
            // The style's colours are sRGB (BT.709's primaries; its transfer is near enough BT.709's
            // for an overlay), turned into YCbCr by BT.601's matrix. Said on the context (the
            // container's tags) and on the frame (ProRes writes each frame's into its header).
            context.pointee.color_range = AVCOL_RANGE_MPEG
            context.pointee.colorspace = AVCOL_SPC_SMPTE170M
            context.pointee.color_primaries = AVCOL_PRI_BT709
            context.pointee.color_trc = AVCOL_TRC_BT709
            frame.pointee.color_range = AVCOL_RANGE_MPEG
            frame.pointee.colorspace = AVCOL_SPC_SMPTE170M
            frame.pointee.color_primaries = AVCOL_PRI_BT709
            frame.pointee.color_trc = AVCOL_TRC_BT709
        }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        switch encoding {
        case .proRes4444:
            av_dict_set(&options, "profile", "4444", 0)
            // Apple's own vendor tag: some of Apple's tools refuse ProRes that names another.
            av_dict_set(&options, "vendor", "apl0", 0)
        case .vp9(let crf):
            // Constant quality (a bitrate of 0 with a CRF), libvpx's "good" deadline at speed 4
            // (of 0-8; 0 is many times slower for no visible gain on flat drawing), rows of tiles in
            // parallel.
            av_dict_set(&options, "crf", String(format: "%g", crf), 0)
            av_dict_set(&options, "b", "0", 0)
            av_dict_set(&options, "deadline", "good", 0)
            av_dict_set(&options, "cpu-used", "4", 0)
            av_dict_set(&options, "row-mt", "1", 0)
        default: break
        }
        arcapture_av_clear_log()
        let status = avcodec_open2(context, codec, &options)
        guard status >= 0 else { throw failed("\(codecName) does not open", status, starting: true) }
        try allocateFrame(pixelFormat, width: width, height: height)
    }

    /// Adds an output stream for each of the input's copied streams, described as in the input.
    private func addCopiedStreams(to output: UnsafeMutablePointer<AVFormatContext>) throws(VideoWriteError) {
        // An overlay goes over the footage in an editor, which has the footage's own sound.
        guard !encoding.hasAlpha else { return }
        for described in source?.streams ?? [] where !described.isVideo {
            let input = described.shadow
            guard let stream = avformat_new_stream(output, nil),
                avcodec_parameters_copy(stream.pointee.codecpar, input.pointee.codecpar) >= 0,
                arcapture_av_copy_side_data(stream, input, 1) >= 0
            else {
                throw VideoWriteError(path: name, problem: "no memory", cannotStart: true)
            }
            // The input's codec tag is kept where this container spells the codec the same way
            // (what `ffmpeg -c copy` does); elsewhere the muxer picks its own.
            if let parameters = stream.pointee.codecpar, let tags = output.pointee.oformat.pointee.codec_tag {
                var own: UInt32 = 0
                let sameCodec = av_codec_get_id(tags, parameters.pointee.codec_tag) == parameters.pointee.codec_id
                if !sameCodec && av_codec_get_tag2(tags, parameters.pointee.codec_id, &own) != 0 {
                    parameters.pointee.codec_tag = 0
                }
            }
            stream.pointee.time_base = input.pointee.time_base
            stream.pointee.disposition = input.pointee.disposition
            av_dict_copy(&stream.pointee.metadata, input.pointee.metadata, 0)
            copiedStreams[described.index] = (stream, input.pointee.time_base)
        }
    }

    // MARK: - Writing

    private func checkSize(_ width: Int, _ height: Int, _ subsampling: ChromaSubsampling) throws(VideoWriteError) {
        guard let size, size.width != width || size.height != height || size.subsampling != subsampling else { return }
        throw VideoWriteError(
            path: name,
            problem: "frame \(frames) is \(width)x\(height) \(subsampling), the video \(size.width)x\(size.height) "
                + "\(size.subsampling): a video stream cannot change size")
    }

    /// The frame's time in the video's time base: as given, else a tick of the frame rate after the
    /// last; never at or before the last (encoders and muxers refuse that).
    private func nextTimestamp(_ given: Int64?) -> Int64 {
        let step = max(
            1,
            av_rescale_q(1, AVRational(num: Int32(frameRate.denominator), den: Int32(frameRate.numerator)), timeBase))
        var timestamp = given ?? lastTimestamp.map { $0 + step } ?? 0
        if let lastTimestamp, timestamp <= lastTimestamp {
            if given != nil { retimedFrames += 1 }
            timestamp = lastTimestamp + 1
        }
        lastTimestamp = timestamp
        return timestamp
    }

    /// Copies the image's rows into the encoder's frame (whose rows are padded).
    private func fill(_ frame: UnsafeMutablePointer<AVFrame>, from image: YCbCrImage) {
        let targets = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
        let strides = [frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2]
        for index in image.planes.indices where index < 3 {
            guard let target = targets[index] else { continue }
            let plane = image.planes[index]
            let stride = Int(strides[index])
            let columns = min(plane.width, stride)
            plane.bytes.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                for row in 0..<plane.height {
                    (target + row * stride).update(from: base + row * plane.stride, count: columns)
                }
            }
        }
    }

    /// Copies a picture's rows into the encoder's frame (whose rows are padded).
    private func fill(_ frame: UnsafeMutablePointer<AVFrame>, from picture: VideoPicture) {
        let targets = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2, frame.pointee.data.3]
        let strides = [
            frame.pointee.linesize.0, frame.pointee.linesize.1, frame.pointee.linesize.2, frame.pointee.linesize.3,
        ]
        let sizes = picture.layout.planes(width: picture.width, height: picture.height)
        for index in picture.planes.indices where index < 4 {
            guard let target = targets[index] else { continue }
            let rowBytes = picture.rowBytes(ofPlane: index)
            let stride = Int(strides[index])
            let columns = min(rowBytes, stride)
            picture.planes[index].withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                for row in 0..<sizes[index].height {
                    (target + row * stride).update(from: base + row * rowBytes, count: columns)
                }
            }
        }
    }

    /// Writes every packet the encoder has ready.
    private func drainEncoder() throws(VideoWriteError) {
        guard let encoder, let packet, let videoStream else { return }
        while true {
            let status = avcodec_receive_packet(encoder, packet)
            if status == arcapture_av_again || status == arcapture_av_eof { return }
            guard status >= 0 else { throw failed("the encoder failed", status) }
            packet.pointee.stream_index = videoStream.pointee.index
            av_packet_rescale_ts(packet, encoder.pointee.time_base, videoStream.pointee.time_base)
            let written = av_interleaved_write_frame(output, packet)
            guard written >= 0 else { throw failed("writing the video failed", written) }
        }
    }

    /// Writes the copied packets the reader met before `mark` (all when nil), each in its stream's
    /// time base.
    private func writeCopied(upTo mark: Int?) throws(VideoWriteError) {
        guard let source else { return }
        for item in source.take(upTo: mark) {
            defer { VideoStreamCopy.release(item.packet) }
            guard let target = copiedStreams[item.stream] else { continue }
            item.packet.pointee.stream_index = target.stream.pointee.index
            item.packet.pointee.pos = -1
            av_packet_rescale_ts(item.packet, target.timeBase, target.stream.pointee.time_base)
            let status = av_interleaved_write_frame(output, item.packet)
            guard status >= 0 else { throw failed("writing stream \(item.stream)'s packets failed", status) }
        }
    }

    private func failed(_ what: String, _ status: Int32, starting: Bool = false) -> VideoWriteError {
        // FFmpeg's AVERROR(e) is -e for the system's error numbers; its own codes are tags far below.
        VideoWriteError(
            path: name, problem: "\(what): \(Self.failure(status))", cannotStart: starting,
            errno: status < 0 && status > -4096 ? -status : nil)
    }

    private static func failure(_ status: Int32) -> String { MediaContainer.failure(status) }

    /// The pixel format of planes laid out as `subsampling` (the range is said separately).
    static func pixelFormat(for subsampling: ChromaSubsampling, fullRange: Bool) -> AVPixelFormat {
        switch (subsampling, fullRange) {
        case (.s420, false): AV_PIX_FMT_YUV420P
        case (.s420, true): AV_PIX_FMT_YUVJ420P
        case (.s422, false): AV_PIX_FMT_YUV422P
        case (.s422, true): AV_PIX_FMT_YUVJ422P
        case (.gray, _): AV_PIX_FMT_GRAY8
        case (_, false): AV_PIX_FMT_YUV444P
        case (_, true): AV_PIX_FMT_YUVJ444P
        }
    }
}
