import CaptureKit

/// A frame's planes as pointers, for the painter's kernels; `cb` and `cr` are nil on grey frames.
/// Valid only inside ``withPlanes(of:_:)``.
struct PlanePointers {
    let luma: UnsafeMutablePointer<UInt8>
    let cb: UnsafeMutablePointer<UInt8>?
    let cr: UnsafeMutablePointer<UInt8>?
    let lumaStride: Int
    let chromaStride: Int

    /// Runs `body` with pointers to `image`'s planes. The planes' bytes are moved out (no copy: the
    /// image's references are dropped) so all three can be written through pointers at once, and
    /// moved back at the end.
    static func withPlanes(of image: inout YCbCrImage, _ body: (PlanePointers) -> Void) {
        let hasChroma = image.planes.count == 3
        var lumaBytes = image.planes[0].bytes
        image.planes[0].bytes = []
        var cbBytes = hasChroma ? image.planes[1].bytes : []
        var crBytes = hasChroma ? image.planes[2].bytes : []
        if hasChroma {
            image.planes[1].bytes = []
            image.planes[2].bytes = []
        }
        defer {
            image.planes[0].bytes = lumaBytes
            if hasChroma {
                image.planes[1].bytes = cbBytes
                image.planes[2].bytes = crBytes
            }
        }
        let lumaStride = image.planes[0].stride
        let chromaStride = hasChroma ? image.planes[1].stride : 0
        lumaBytes.withUnsafeMutableBufferPointer { lumaBuffer in
            cbBytes.withUnsafeMutableBufferPointer { cbBuffer in
                crBytes.withUnsafeMutableBufferPointer { crBuffer in
                    guard let luma = lumaBuffer.baseAddress else { return }
                    // Grey frames have no chroma (an empty array's base address is not nil: it must
                    // not be written).
                    body(
                        PlanePointers(
                            luma: luma, cb: hasChroma ? cbBuffer.baseAddress : nil,
                            cr: hasChroma ? crBuffer.baseAddress : nil, lumaStride: lumaStride,
                            chromaStride: chromaStride))
                }
            }
        }
    }
}
