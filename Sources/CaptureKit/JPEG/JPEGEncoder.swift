internal import CTurboJPEG

/// Encodes planar YCbCr images as baseline JPEG with libjpeg-turbo.
///
/// One encoder keeps one TurboJPEG handle and one output buffer for all the frames it encodes
/// (TurboJPEG grows the buffer when a frame needs more); create one per thread (an encoder is not
/// `Sendable`).
public final class JPEGEncoder {
    private let handle: tjhandle
    private var output: UnsafeMutablePointer<UInt8>?
    private var outputCapacity: UInt = 0

    /// Creates an encoder.
    ///
    /// - Throws: ``JPEGError/handleUnavailable`` when libjpeg-turbo cannot allocate a handle.
    public init() throws(JPEGError) {
        guard let handle = tjInitCompress() else { throw .handleUnavailable }
        self.handle = handle
    }

    deinit {
        tjFree(output)
        tjDestroy(handle)
    }

    /// Encodes `image`.
    ///
    /// - Parameters:
    ///   - image: the planes to encode.
    ///   - quality: 1 (smallest) to 100 (best); values outside are clamped.
    ///   - subsampling: the chroma layout of the JPEG; nil keeps the image's own (no resampling, the
    ///     fast path). Another layout resamples the chroma first.
    /// - Returns: the JPEG file's bytes.
    /// - Throws: ``JPEGError/encodingFailed(_:)``.
    public func encode(_ image: YCbCrImage, quality: Int = 90, subsampling: ChromaSubsampling? = nil) throws(JPEGError)
        -> [UInt8]
    {
        let source = subsampling.map { image.resampled(to: $0) } ?? image
        var strides = source.planes.map { Int32($0.stride) }
        var size = outputCapacity
        let layout = source.subsampling.turboJPEG
        let (width, height) = (Int32(source.width), Int32(source.height))
        // Read-only pointers: borrowing the planes mutably would copy them (the caller holds them too).
        let status = source.withPlaneReadPointers { planes in
            tjCompressFromYUVPlanes(
                handle, planes, width, &strides, height, layout, &output, &size, Int32(min(max(quality, 1), 100)), 0)
        }
        guard status == 0, let output else { throw .encodingFailed(String(cString: tjGetErrorStr2(handle))) }
        outputCapacity = max(outputCapacity, size)
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
