/// Which YCbCr values a frame's samples use: JPEG's full range, or video's limited ("TV") range,
/// as Y4M from an MP4 usually is. Colours are converted to the frame's range before drawing, so
/// an overlay looks the same on both.
public enum SampleRange: Sendable, Hashable {
    /// Y, Cb and Cr over 0–255 (JPEG, `XCOLORRANGE=FULL`).
    case full
    /// Y over 16–235, Cb and Cr over 16–240 (BT.601 video).
    case limited
}
