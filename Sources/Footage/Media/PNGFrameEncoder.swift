import CFFmpeg

/// Encodes RGBA pictures as PNG files through libavcodec's PNG encoder (zlib's deflate, the
/// filters chosen per row): an overlay-only output's frames, one file each, for an editor's image
/// sequence. Not thread-safe: one per worker.
public final class PNGFrameEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var size: (width: Int, height: Int)?

    /// Creates an encoder; it opens at the first picture, whose size it keeps.
    public init() {
        frame = av_frame_alloc()
        packet = av_packet_alloc()
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
        av_packet_free(&packet)
    }

    /// The PNG file of `picture` (``VideoPicture/Layout/rgba``).
    ///
    /// - Throws: ``VideoWriteError`` (named `name`) when the picture is not RGBA or libavcodec fails.
    public func encode(_ picture: VideoPicture, name: String) throws(VideoWriteError) -> [UInt8] {
        guard picture.layout == .rgba else {
            throw VideoWriteError(path: name, problem: "a PNG frame is written from RGBA")
        }
        if let size, size != (picture.width, picture.height) { avcodec_free_context(&context) }
        if context == nil { try open(width: picture.width, height: picture.height, name: name) }
        guard let context, let frame, let packet else {
            throw VideoWriteError(path: name, problem: "no memory for the PNG encoder")
        }
        guard av_frame_make_writable(frame) >= 0, let target = frame.pointee.data.0 else {
            throw VideoWriteError(path: name, problem: "no memory for a frame")
        }
        let stride = Int(frame.pointee.linesize.0)
        let rowBytes = picture.rowBytes(ofPlane: 0)
        picture.planes[0].withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            for row in 0..<picture.height {
                (target + row * stride).update(from: base + row * rowBytes, count: min(rowBytes, stride))
            }
        }
        var status = avcodec_send_frame(context, frame)
        guard status >= 0 else { throw failure("the PNG encoder refused the frame", status, name) }
        status = avcodec_receive_packet(context, packet)
        guard status >= 0, let data = packet.pointee.data else {
            throw failure("the PNG encoder gave nothing", status, name)
        }
        defer { av_packet_unref(packet) }
        return Array(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }

    private func open(width: Int, height: Int, name: String) throws(VideoWriteError) {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw VideoWriteError(path: name, problem: "FFmpeg here has no PNG encoder", cannotStart: true)
        }
        guard let made = avcodec_alloc_context3(codec), let frame else {
            throw VideoWriteError(path: name, problem: "no memory for the PNG encoder", cannotStart: true)
        }
        context = made
        size = (width, height)
        made.pointee.width = Int32(width)
        made.pointee.height = Int32(height)
        made.pointee.pix_fmt = AV_PIX_FMT_RGBA
        made.pointee.time_base = AVRational(num: 1, den: 25)
        // One thread: the workers already draw and encode frames in parallel.
        made.pointee.thread_count = 1
        var status = avcodec_open2(made, codec, nil)
        guard status >= 0 else { throw failure("the PNG encoder does not open", status, name, starting: true) }
        av_frame_unref(frame)
        frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        status = av_frame_get_buffer(frame, 0)
        guard status >= 0 else { throw failure("no memory for a frame", status, name, starting: true) }
    }

    private func failure(_ what: String, _ status: Int32, _ name: String, starting: Bool = false) -> VideoWriteError {
        VideoWriteError(path: name, problem: "\(what): \(MediaContainer.failure(status))", cannotStart: starting)
    }
}
