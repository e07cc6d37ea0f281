import ArcaptureCore

extension VideoFrame {
    /// The picture's luma statistics, read from the raw frame; nil for a compressed format (decode
    /// it first), for a format whose luma this does not read, or for a frame shorter than its
    /// format says (a damaged one).
    ///
    /// Read: the packed 4:2:2 formats (YUYV, UYVY, YVYU, VYUY), the planar and semi-planar ones
    /// whose first plane is luma (YU12, YV12, 422P, NV12, NV21, NV16, NV61, GREY) and 24-bit RGB
    /// and BGR (luma by BT.601's weights).
    public var lumaStatistics: LumaStatistics? {
        let (width, height) = (Int(format.width), Int(format.height))
        let layout: (bytesPerPixel: Int, offset: Int, rgb: (r: Int, g: Int, b: Int)?)
        switch format.pixelFormat {
        case .yuyv, .yvyu: layout = (2, 0, nil)
        case .uyvy, .vyuy: layout = (2, 1, nil)
        case .yuv420, .yvu420, .yuv422p, .nv12, .nv21, .nv16, .nv61, .grey: layout = (1, 0, nil)
        case .rgb24: layout = (3, 0, (0, 1, 2))
        case .bgr24: layout = (3, 0, (2, 1, 0))
        default: return nil
        }
        let stride = max(Int(format.bytesPerLine), width * layout.bytesPerPixel)
        guard width > 0, height > 0, data.count >= stride * (height - 1) + width * layout.bytesPerPixel else {
            return nil
        }
        return data.withUnsafeBufferPointer { bytes in
            LumaStatistics(width: width, height: height) { x, y in
                let at = y * stride + x * layout.bytesPerPixel + layout.offset
                guard let rgb = layout.rgb else { return bytes[at] }
                let luma =
                    0.299 * Double(bytes[at + rgb.r]) + 0.587 * Double(bytes[at + rgb.g]) + 0.114
                    * Double(bytes[at + rgb.b])
                return UInt8(min(255, luma.rounded()))
            }
        }
    }
}
