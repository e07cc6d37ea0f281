import ArcaptureCore

/// A frame's planes as pointers, for the painter's kernels; `cb` and `cr` are nil on grey frames.
/// Valid only inside ``withPlanes(of:_:)``.
struct PlanePointers {
    let luma: UnsafeMutablePointer<UInt8>
    let cb: UnsafeMutablePointer<UInt8>?
    let cr: UnsafeMutablePointer<UInt8>?
    let lumaStride: Int
    let chromaStride: Int

    /// Runs `body` with pointers to `image`'s planes (`YCbCrImage/withPlanePointers(_:)`, which
    /// moves their storage out for the call: nothing is copied).
    static func withPlanes(of image: inout YCbCrImage, _ body: (PlanePointers) -> Void) {
        let hasChroma = image.planes.count == 3
        let lumaStride = image.planes[0].stride
        let chromaStride = hasChroma ? image.planes[1].stride : 0
        image.withPlanePointers { pointers in
            guard let luma = pointers[0] else { return }
            body(
                PlanePointers(
                    luma: luma, cb: hasChroma ? pointers[1] : nil, cr: hasChroma ? pointers[2] : nil,
                    lumaStride: lumaStride, chromaStride: chromaStride))
        }
    }
}
