import ArcaptureCore

extension YCbCrImage {
    /// The image as packed YUYV 4:2:2 (`V4L2_PIX_FMT_YUYV`: Y0 Cb Y1 Cr for each pair of pixels),
    /// the layout every V4L2 consumer reads; chroma is resampled to 4:2:2 first when the image
    /// has another layout (``resampled(to:)``). A greyscale image gets neutral chroma (128).
    ///
    /// The planes hold full-range samples (as JPEG does, and as CaptureKit stretches a camera's
    /// limited-range frames to); consumers read YUYV as limited range (V4L2's default for Y'CbCr,
    /// and what v4l2loopback announces whatever a producer sets), so with `limitedRange` samples are
    /// compressed to it: luma 0–255 to 16–235 (`16 + Y·219/255`), chroma to 16–240
    /// (`128 + (C − 128)·224/255`), each rounded to the nearest.
    ///
    /// - Precondition: `width` is even (YUYV holds pixels in pairs).
    public func packedYUYV(limitedRange: Bool = true) -> [UInt8] {
        precondition(width % 2 == 0, "YUYV needs an even width")
        let source = subsampling == .gray || subsampling == .s422 ? self : resampled(to: .s422)
        let (lumaTable, chromaTable) = limitedRange ? Self.limitedRangeTables : Self.identityTables
        var packed = [UInt8](repeating: 128, count: width * height * 2)
        let luma = source.planes[0]
        let hasChroma = source.subsampling != .gray
        packed.withUnsafeMutableBufferPointer { out in
            luma.bytes.withUnsafeBufferPointer { y in
                for row in 0..<height {
                    let lineOut = row * width * 2
                    let lineY = row * luma.stride
                    for x in 0..<width { out[lineOut + 2 * x] = lumaTable[Int(y[lineY + x])] }
                }
            }
            guard hasChroma else { return }
            let (cb, cr) = (source.planes[1], source.planes[2])
            cb.bytes.withUnsafeBufferPointer { u in
                cr.bytes.withUnsafeBufferPointer { v in
                    for row in 0..<height {
                        let lineOut = row * width * 2
                        let lineC = row * cb.stride
                        let lineR = row * cr.stride
                        for pair in 0..<(width / 2) {
                            out[lineOut + 4 * pair + 1] = chromaTable[Int(u[lineC + pair])]
                            out[lineOut + 4 * pair + 3] = chromaTable[Int(v[lineR + pair])]
                        }
                    }
                }
            }
        }
        return packed
    }

    /// Full range to limited range, luma and chroma, rounded to the nearest (halves away from the
    /// middle).
    static let limitedRangeTables: (luma: [UInt8], chroma: [UInt8]) = (
        (0...255).map { UInt8((Int($0) * 219 + 127) / 255 + 16) },
        (0...255).map { value in
            let offset = (Int(value) - 128) * 224
            return UInt8(128 + (offset >= 0 ? (offset + 127) / 255 : -((-offset + 127) / 255)))
        }
    )

    static let identityTables: (luma: [UInt8], chroma: [UInt8]) = (
        (0...255).map { UInt8($0) }, (0...255).map { UInt8($0) }
    )
}
