internal import CV4L2

/// An ioctl request code with the name errors use.
///
/// Codes stay `UInt` end to end: `VIDIOC_QUERYCAP` is 0x80685600 and does not fit `Int32`.
struct V4L2Request: Sendable {
    /// The request's name, such as `VIDIOC_S_FMT`.
    let name: String
    /// The request code.
    let code: UInt

    static let queryCapability = V4L2Request(name: "VIDIOC_QUERYCAP", code: cv4l2_vidioc_querycap())
    static let enumerateFormat = V4L2Request(name: "VIDIOC_ENUM_FMT", code: cv4l2_vidioc_enum_fmt())
    static let getFormat = V4L2Request(name: "VIDIOC_G_FMT", code: cv4l2_vidioc_g_fmt())
    static let setFormat = V4L2Request(name: "VIDIOC_S_FMT", code: cv4l2_vidioc_s_fmt())
    static let requestBuffers = V4L2Request(name: "VIDIOC_REQBUFS", code: cv4l2_vidioc_reqbufs())
    static let queryBuffer = V4L2Request(name: "VIDIOC_QUERYBUF", code: cv4l2_vidioc_querybuf())
    static let queueBuffer = V4L2Request(name: "VIDIOC_QBUF", code: cv4l2_vidioc_qbuf())
    static let dequeueBuffer = V4L2Request(name: "VIDIOC_DQBUF", code: cv4l2_vidioc_dqbuf())
    static let streamOn = V4L2Request(name: "VIDIOC_STREAMON", code: cv4l2_vidioc_streamon())
    static let streamOff = V4L2Request(name: "VIDIOC_STREAMOFF", code: cv4l2_vidioc_streamoff())
    static let getParameters = V4L2Request(name: "VIDIOC_G_PARM", code: cv4l2_vidioc_g_parm())
    static let setParameters = V4L2Request(name: "VIDIOC_S_PARM", code: cv4l2_vidioc_s_parm())
    static let enumerateFrameSizes = V4L2Request(
        name: "VIDIOC_ENUM_FRAMESIZES", code: cv4l2_vidioc_enum_framesizes())
    static let enumerateFrameIntervals = V4L2Request(
        name: "VIDIOC_ENUM_FRAMEINTERVALS", code: cv4l2_vidioc_enum_frameintervals())
    static let queryExtendedControl = V4L2Request(
        name: "VIDIOC_QUERY_EXT_CTRL", code: cv4l2_vidioc_query_ext_ctrl())
    static let queryControl = V4L2Request(name: "VIDIOC_QUERYCTRL", code: cv4l2_vidioc_queryctrl())
    static let queryMenu = V4L2Request(name: "VIDIOC_QUERYMENU", code: cv4l2_vidioc_querymenu())
    static let getControl = V4L2Request(name: "VIDIOC_G_CTRL", code: cv4l2_vidioc_g_ctrl())
    static let setControl = V4L2Request(name: "VIDIOC_S_CTRL", code: cv4l2_vidioc_s_ctrl())
    static let setExtendedControls = V4L2Request(name: "VIDIOC_S_EXT_CTRLS", code: cv4l2_vidioc_s_ext_ctrls())
    static let getExtendedControls = V4L2Request(
        name: "VIDIOC_G_EXT_CTRLS", code: cv4l2_vidioc_g_ext_ctrls())
}
