import CaptureKit

/// Where `arcapture capture` writes frames.
public enum CaptureDestination: Equatable, Sendable {
    /// One JPEG file per frame, named from a template.
    case files(OutputTemplate)
    /// Concatenated JPEGs on stdout: what `ffmpeg -f mjpeg -i -` and `ffplay` read.
    case mjpegStream
    /// A YUV4MPEG2 stream on stdout: what `ffmpeg -f yuv4mpegpipe -i -` reads.
    case y4mStream
    /// To a ``FrameBroadcast``: each frame encoded once, for every client of a `LiveViewServer`
    /// (`arcapture serve`).
    case broadcast(FrameBroadcast)
    /// A virtual camera: a v4l2loopback node that other programs open as a webcam
    /// (`VirtualCameraOutput`), in YUYV or MJPEG.
    case virtualCamera(path: String, encoding: VirtualCameraOutput.Encoding)
    /// Nowhere: frames are chosen and annotated (a view's handlers, bindings and sidecar see
    /// them), then dropped.
    case discard
}
