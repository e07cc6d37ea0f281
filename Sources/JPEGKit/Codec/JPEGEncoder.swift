import ArcaptureCore
internal import CLibJPEG
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
    /// libjpeg's own API, for frames with restart markers.
    private let compressor = LibJPEGCompressor()

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
    ///   - restartRows: MCU rows per restart interval (a restart marker after each), 0 for none.
    ///     With markers, the frame can be spliced when annotated again (``JPEGSplicer``), and a
    ///     damaged byte costs a decoder one interval rather than the rest of the frame.
    /// - Returns: the JPEG file's bytes.
    /// - Throws: ``JPEGError/encodingFailed(_:)``.
    public func encode(
        _ image: YCbCrImage, quality: Int = 90, subsampling: ChromaSubsampling? = nil, restartRows: Int = 0
    ) throws(JPEGError) -> [UInt8] {
        let source = subsampling.map { image.resampled(to: $0) } ?? image
        if restartRows > 0 {
            return try encodeWithLibJPEG(source, quality: quality, restartRows: min(restartRows, 65_535))
        }
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

    /// Converts 8-bit RGB pixels (3 bytes each, rows `stride` bytes apart) to full-range YCbCr
    /// planes in `subsampling` (JFIF's transform, as a JPEG holds them), with libjpeg-turbo's own
    /// colour conversion and downsampling (SIMD where the CPU has it): a picture decoded by
    /// another library (a HEIC's, through libheif) is drawn on and encoded like any JPEG's.
    ///
    /// - Throws: ``JPEGError/encodingFailed(_:)`` when the buffer is smaller than the size says,
    ///   or libjpeg-turbo refuses.
    public func planes(
        fromRGB pixels: UnsafeRawBufferPointer, width: Int, height: Int, stride: Int,
        subsampling: ChromaSubsampling = .s420
    ) throws(JPEGError) -> YCbCrImage {
        guard width > 0, height > 0, stride >= width * 3, pixels.count >= stride * (height - 1) + width * 3,
            let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { throw .encodingFailed("\(width)x\(height) RGB pixels do not fit a \(pixels.count)-byte buffer") }
        var image = YCbCrImage(width: width, height: height, subsampling: subsampling)
        var strides = image.planes.map { Int32($0.stride) }
        let status = image.withPlanePointers { planes in
            tjEncodeYUVPlanes(
                handle, base, Int32(width), Int32(stride), Int32(height), Int32(TJPF_RGB.rawValue), planes, &strides,
                subsampling.turboJPEG, 0)
        }
        guard status == 0 else { throw .encodingFailed(String(cString: tjGetErrorStr2(handle))) }
        return image
    }

    /// Encodes through libjpeg's own API, which TurboJPEG 2.1 does not give restart markers to:
    /// the same settings as `tjCompressFromYUVPlanes` (tables scaled to `quality`, its choice of
    /// transform, edges repeated the same way), so that with `restartRows` 0 the bytes are the
    /// same as TurboJPEG's (a test holds them to it).
    func encodeWithLibJPEG(_ image: YCbCrImage, quality: Int, restartRows: Int) throws(JPEGError) -> [UInt8] {
        var settings = arcj_compress_settings()
        settings.width = Int32(image.width)
        settings.height = Int32(image.height)
        settings.components = Int32(image.planes.count)
        settings.quality = Int32(min(max(quality, 1), 100))
        settings.restart_rows = Int32(restartRows)
        let (h, v) = (Int32(image.subsampling.horizontalFactor), Int32(image.subsampling.verticalFactor))
        settings.component_id = (1, 2, 3)
        settings.h = (h, 1, 1)
        settings.v = (v, 1, 1)
        settings.quant_index = (0, 1, 1)
        settings.dc_index = (0, 1, 1)
        settings.ac_index = (0, 1, 1)
        let sizes = YCbCrImage.codedPlaneSizes(
            width: image.width, height: image.height, subsampling: image.subsampling)
        return try compressor.compress(image, settings: settings, sizes: sizes)
    }
}
