import CV4L2
@_spi(Testing) import ScriptedCamera
import Testing

@_spi(Testing) @testable import CaptureKit

/// The Swift spellings of kernel ABI values, checked against <linux/videodev2.h> itself.
@Suite("Kernel constants match the headers")
struct KernelConstantsTests {
    @Test("capability flags")
    func capabilities() {
        let pairs: [(DeviceCapabilities, Int32)] = [
            (.videoCapture, V4L2_CAP_VIDEO_CAPTURE), (.videoOutput, V4L2_CAP_VIDEO_OUTPUT),
            (.videoOverlay, V4L2_CAP_VIDEO_OVERLAY), (.vbiCapture, V4L2_CAP_VBI_CAPTURE),
            (.videoCaptureMultiplanar, V4L2_CAP_VIDEO_CAPTURE_MPLANE),
            (.videoOutputMultiplanar, V4L2_CAP_VIDEO_OUTPUT_MPLANE),
            (.videoMemoryToMemoryMultiplanar, V4L2_CAP_VIDEO_M2M_MPLANE), (.videoMemoryToMemory, V4L2_CAP_VIDEO_M2M),
            (.tuner, V4L2_CAP_TUNER), (.audio, V4L2_CAP_AUDIO), (.radio, V4L2_CAP_RADIO),
            (.sdrCapture, V4L2_CAP_SDR_CAPTURE), (.extendedPixelFormat, V4L2_CAP_EXT_PIX_FORMAT),
            (.metadataCapture, V4L2_CAP_META_CAPTURE), (.readWrite, V4L2_CAP_READWRITE),
            (.streaming, V4L2_CAP_STREAMING), (.metadataOutput, V4L2_CAP_META_OUTPUT), (.touch, V4L2_CAP_TOUCH),
            (.mediaControllerIO, V4L2_CAP_IO_MC),
        ]
        for (flag, value) in pairs { #expect(flag.rawValue == UInt32(value), "\(flag.names)") }
        #expect(
            DeviceCapabilities.deviceCaps.rawValue
                == UInt32(bitPattern: Int32(truncatingIfNeeded: V4L2_CAP_DEVICE_CAPS)))
    }

    @Test("buffer, control and type values")
    func otherValues() {
        #expect(BufferFlags.error.rawValue == UInt32(V4L2_BUF_FLAG_ERROR))
        #expect(BufferFlags.keyFrame.rawValue == UInt32(V4L2_BUF_FLAG_KEYFRAME))
        #expect(BufferFlags.timestampMonotonic.rawValue == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC))
        #expect(BufferFlags.timestampCopy.rawValue == UInt32(V4L2_BUF_FLAG_TIMESTAMP_COPY))
        #expect(BufferFlags.timestampTypeMask == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK))
        #expect(BufferFlags.timestampStartOfExposure.rawValue == UInt32(V4L2_BUF_FLAG_TSTAMP_SRC_SOE))
        #expect(BufferFlags.last.rawValue == UInt32(V4L2_BUF_FLAG_LAST))
        #expect(ControlFlags.disabled.rawValue == UInt32(V4L2_CTRL_FLAG_DISABLED))
        #expect(ControlFlags.readOnly.rawValue == UInt32(V4L2_CTRL_FLAG_READ_ONLY))
        #expect(ControlFlags.inactive.rawValue == UInt32(V4L2_CTRL_FLAG_INACTIVE))
        #expect(ControlFlags.writeOnly.rawValue == UInt32(V4L2_CTRL_FLAG_WRITE_ONLY))
        #expect(ControlFlags.volatile.rawValue == UInt32(V4L2_CTRL_FLAG_VOLATILE))
        #expect(ControlType.integer.rawValue == V4L2_CTRL_TYPE_INTEGER.rawValue)
        #expect(ControlType.menu.rawValue == V4L2_CTRL_TYPE_MENU.rawValue)
        #expect(ControlType.integerMenu.rawValue == V4L2_CTRL_TYPE_INTEGER_MENU.rawValue)
        #expect(ControlType.bitmask.rawValue == V4L2_CTRL_TYPE_BITMASK.rawValue)
        #expect(ControlType.u8.rawValue == V4L2_CTRL_TYPE_U8.rawValue)
        #expect(ControlType.area.rawValue == V4L2_CTRL_TYPE_AREA.rawValue)
        #expect(BufferQueue.capture.rawType == V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        #expect(BufferQueue.captureMultiplanar.rawType == V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE.rawValue)
    }

    @Test("request codes stay unsigned and named")
    func requestCodes() {
        #expect(V4L2Request.queryCapability.code == 0x8068_5600)
        #expect(V4L2Request.setFormat.name == "VIDIOC_S_FMT")
    }
}
