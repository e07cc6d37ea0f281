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
        }
    }
}
