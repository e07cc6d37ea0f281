import ArcaptureCore
import CFFmpeg

/// How a decoder's frame holds its samples, beside its chroma subsampling: what `VideoDecoder`
/// turns into the 8-bit planes the compositor draws on.
enum DecodedSampleLayout: Equatable {
    /// One byte a sample, a plane each (yuv420p and its kin): copied row by row.
    case planar
    /// Two bytes a sample, little-endian, 10 significant bits (yuv420p10le: HEVC from GoPro's
    /// HERO9 and later, many drones and phones in HDR-less 10-bit): each rounded to 8 bits.
    case planar10
    /// Luma, then one plane of chroma pairs (NV12 Cb first, NV21 Cr first; what hardware
    /// decoders and some capture files give): the pairs split into two planes.
    case interleavedChroma(crFirst: Bool)

    /// The layout and chroma subsampling for a pixel format, nil for those not drawn on
    /// (packed formats, RGB, more than 10 bits, alpha).
    static func of(_ format: AVPixelFormat) -> (layout: DecodedSampleLayout, subsampling: ChromaSubsampling)? {
        switch format {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: (.planar, .s420)
        case AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P: (.planar, .s422)
        case AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ444P: (.planar, .s444)
        case AV_PIX_FMT_YUV440P, AV_PIX_FMT_YUVJ440P: (.planar, .s440)
        case AV_PIX_FMT_YUV411P: (.planar, .s411)
        case AV_PIX_FMT_GRAY8: (.planar, .gray)
        case AV_PIX_FMT_YUV420P10LE: (.planar10, .s420)
        case AV_PIX_FMT_YUV422P10LE: (.planar10, .s422)
        case AV_PIX_FMT_YUV444P10LE: (.planar10, .s444)
        case AV_PIX_FMT_NV12: (.interleavedChroma(crFirst: false), .s420)
        case AV_PIX_FMT_NV21: (.interleavedChroma(crFirst: true), .s420)
        default: nil
        }
    }

    /// A 10-bit sample rounded to 8 bits (1023 → 255, 2 → 1), the way FFmpeg's own conversion
    /// without dithering rounds.
    @inline(__always)
    static func eightBits(_ sample: UInt16) -> UInt8 { UInt8(min(255, (Int(sample & 0x3FF) + 2) >> 2)) }
}
