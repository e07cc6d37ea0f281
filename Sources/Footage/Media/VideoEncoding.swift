/// How annotated frames are encoded into a video file.
public enum VideoEncoding: Sendable, Equatable {
    /// H.264 through libavcodec's libx264: `crf` (0–51, lower is better; 18 looks like the input to
    /// most eyes, 23 is x264's own default), `preset` (`ultrafast` … `veryslow`: speed against
    /// size at the same quality) and `parameters`, x264's own options over the preset's, as
    /// `key=value:key=value` (ffmpeg's `-x264-params`; `threads=1:rc-lookahead=0:bframes=0` holds
    /// fewer frames, for a small board's memory). One libx264 cannot use is refused.
    case h264(crf: Double, preset: String, parameters: String? = nil)
    /// Motion JPEG: every frame a JPEG at `quality` (1–100), as the MJPEG outputs write them.
    /// Larger files, but every frame stands alone (editors cut anywhere).
    case mjpeg(quality: Int)
    /// Apple ProRes 4444 with alpha (libavcodec's `prores_ks`, 10-bit 4:4:4 and a 16-bit alpha
    /// channel): what DaVinci Resolve, Premiere and Final Cut take as an overlay track. An
    /// overlay-only output's, in a MOV.
    case proRes4444
    /// QuickTime Animation (`qtrle`, lossless run-length RGB with alpha): small for an overlay that
    /// is mostly transparent, opened by every QuickTime-era editor. An overlay-only output's, in a MOV.
    case quickTimeAnimation
    /// PNG frames in a MOV (lossless RGBA, each frame standing alone). An overlay-only output's.
    case png
    /// VP9 with alpha (libvpx, 4:2:0 and an alpha channel) at constant quality `crf` (0–63, lower is
    /// better): what browsers and web editors composite. An overlay-only output's, in WebM or Matroska.
    case vp9(crf: Double)

    /// The default: H.264 at CRF 20 with the `veryfast` preset. Hours of footage are re-encoded on
    /// small machines, where `veryfast` is about three times `medium`'s speed; CRF 20 rather than
    /// x264's 23 buys back what the faster preset gives up in quality, for files about the size of
    /// `medium`'s at 23.
    public static let standard = VideoEncoding.h264(crf: 20, preset: "veryfast")

    /// x264's presets, fastest first.
    public static let presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
    ]

    /// The codec's name, for messages and reports (`h264`, `mjpeg`).
    public var codecName: String {
        switch self {
        case .h264: "h264"
        case .mjpeg: "mjpeg"
        case .proRes4444: "prores"
        case .quickTimeAnimation: "qtrle"
        case .png: "png"
        case .vp9: "vp9"
        }
    }

    /// Whether frames carry alpha (an overlay-only output's encodings) rather than a picture.
    public var hasAlpha: Bool { pictureLayout != nil }

    /// How an alpha encoding's encoder takes its frames; nil for H.264 and MJPEG.
    public var pictureLayout: VideoPicture.Layout? {
        switch self {
        case .h264, .mjpeg: nil
        case .proRes4444: .yuva444p10
        case .quickTimeAnimation: .argb
        case .png: .rgba
        case .vp9: .yuva420p
        }
    }

    /// VP9's constant quality when none is given: 30 of 0–63, libvpx's suggestion for 1080p, where
    /// an overlay's flat colours and sharp edges stay clean.
    public static let standardVP9 = VideoEncoding.vp9(crf: 30)

    /// The encodings with alpha, each as it is chosen by its ``codecName`` (VP9 at its standard
    /// quality).
    public static let alphaEncodings: [VideoEncoding] = [.proRes4444, .quickTimeAnimation, .png, .standardVP9]
}
