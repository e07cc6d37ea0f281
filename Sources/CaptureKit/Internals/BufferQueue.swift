/// Which of a node's buffer queues a call addresses (`enum v4l2_buf_type`).
///
/// CaptureKit streams from the single-planar capture queue; the multi-planar one is modelled so
/// that devices offering only it can be described and refused with a clear reason. The output
/// queue is a virtual camera's (``VirtualCameraOutput``: a v4l2loopback device written to).
@_spi(Testing) public enum BufferQueue: Sendable {
    /// `V4L2_BUF_TYPE_VIDEO_CAPTURE`.
    case capture
    /// `V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE`.
    case captureMultiplanar
    /// `V4L2_BUF_TYPE_VIDEO_OUTPUT`.
    case output

    /// The `v4l2_buf_type` value (kernel ABI).
    var rawType: UInt32 {
        switch self {
        case .capture: 1
        case .captureMultiplanar: 9
        case .output: 2
        }
    }
}
