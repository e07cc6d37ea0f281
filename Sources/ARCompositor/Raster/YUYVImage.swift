import ArcaptureCore

/// A frame in packed YUYV 4:2:2 (V4L2's `YUYV`, what most USB webcams send uncompressed): each
/// pair of pixels is four bytes, Y0 Cb Y1 Cr.
public struct YUYVImage: Hashable, Sendable {
    /// Width in pixels (even).
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Bytes per row (at least `width * 2`).
    public var stride: Int
    /// The rows.
    public var bytes: [UInt8]

    /// Wraps `bytes` as a YUYV frame; nil when the size is odd in width or the bytes are too few.
    public init?(width: Int, height: Int, stride: Int? = nil, bytes: [UInt8]) {
        let stride = stride ?? width * 2
        guard width > 0, height > 0, width % 2 == 0, stride >= width * 2, bytes.count >= stride * height else {
            return nil
        }
        self.width = width
        self.height = height
        self.stride = stride
        self.bytes = bytes
    }

    /// Copies a region (`x` even) out as planar 4:2:2.
    func planar(x: Int, y: Int, width: Int, height: Int) -> YCbCrImage {
        var region = YCbCrImage(width: width, height: height, subsampling: .s422)
        bytes.withUnsafeBufferPointer { source in
            for row in 0..<height {
                let line = (y + row) * stride + x * 2
                for pair in 0..<(width / 2) {
                    let at = line + pair * 4
                    region.planes[0][pair * 2, row] = source[at]
                    region.planes[1][pair, row] = source[at + 1]
                    region.planes[0][pair * 2 + 1, row] = source[at + 2]
                    region.planes[2][pair, row] = source[at + 3]
                }
            }
        }
        return region
    }

    /// Writes a planar 4:2:2 region back at (`x`, `y`), `x` even.
    mutating func store(_ region: YCbCrImage, x: Int, y: Int) {
        let stride = self.stride
        bytes.withUnsafeMutableBufferPointer { target in
            for row in 0..<region.height {
                let line = (y + row) * stride + x * 2
                for pair in 0..<(region.width / 2) {
                    let at = line + pair * 4
                    target[at] = region.planes[0][pair * 2, row]
                    target[at + 1] = region.planes[1][pair, row]
                    target[at + 2] = region.planes[0][pair * 2 + 1, row]
                    target[at + 3] = region.planes[2][pair, row]
                }
            }
        }
    }
}
