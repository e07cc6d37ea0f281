extension YCbCrImage {
    /// Calls `body` with an array of read-only pointers to the planes' first bytes, as TurboJPEG's
    /// encoder takes them; nothing is copied.
    package func withPlaneReadPointers<R>(_ body: (UnsafeMutablePointer<UnsafePointer<UInt8>?>) -> R) -> R {
        planes[0].bytes.withUnsafeBufferPointer { y in
            guard planes.count == 3 else {
                var pointers = [y.baseAddress]
                return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress.unsafelyUnwrapped) }
            }
            return planes[1].bytes.withUnsafeBufferPointer { cb in
                planes[2].bytes.withUnsafeBufferPointer { cr in
                    var pointers = [y.baseAddress, cb.baseAddress, cr.baseAddress]
                    // A non-empty array always has a base address.
                    return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress.unsafelyUnwrapped) }
                }
            }
        }
    }

    /// Calls `body` with an array of pointers to the planes' first bytes (luma, then Cb and Cr
    /// when there is chroma), as TurboJPEG takes them and the compositor's kernels write through
    /// them.
    ///
    /// The planes' storage is moved out for the call (no copy) into separate variables, so that all
    /// of it can be borrowed mutably at once without overlapping accesses, then moved back.
    public mutating func withPlanePointers<R>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> R) -> R {
        var luma: [UInt8] = []
        var blue: [UInt8] = []
        var red: [UInt8] = []
        let hasChroma = planes.count == 3
        swap(&luma, &planes[0].bytes)
        if hasChroma {
            swap(&blue, &planes[1].bytes)
            swap(&red, &planes[2].bytes)
        }
        defer {
            swap(&luma, &planes[0].bytes)
            if hasChroma {
                swap(&blue, &planes[1].bytes)
                swap(&red, &planes[2].bytes)
            }
        }
        return luma.withUnsafeMutableBufferPointer { y in
            blue.withUnsafeMutableBufferPointer { cb in
                red.withUnsafeMutableBufferPointer { cr in
                    // A tuple on the stack, not an array: the compositor calls this for every shape
                    // it fills, and an array here was a heap allocation each time. (Grey frames'
                    // empty chroma arrays give nil.)
                    var pointers = (y.baseAddress, hasChroma ? cb.baseAddress : nil, hasChroma ? cr.baseAddress : nil)
                    return withUnsafeMutablePointer(to: &pointers) { tuple in
                        tuple.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 3) { body($0) }
                    }
                }
            }
        }
    }
}
