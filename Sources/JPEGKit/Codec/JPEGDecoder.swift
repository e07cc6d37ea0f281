import ArcaptureCore
internal import CTurboJPEG

/// Decodes JPEG images to planar YCbCr at their own chroma subsampling, with libjpeg-turbo.
///
/// One decoder keeps one TurboJPEG handle for all the frames it decodes; create one per thread
/// (a decoder is not `Sendable`). Truncated and corrupt images throw ``JPEGError``: libjpeg's default
/// error handler would call `exit()`, so CaptureKit uses the TurboJPEG API, which returns errors, and
/// turns libjpeg's warnings (how truncation shows) into errors.
public final class JPEGDecoder {
    private var handle: tjhandle
    /// Whether the handle holds Huffman tables an image brought (a DHT segment of its own).
    ///
    /// libjpeg keeps a decompressor's tables from one image to the next and uses them for an
    /// image that has none: a webcam frame without DHT, which means the standard tables, decoded
    /// after a frame with tables of its own (ffmpeg's, a camera's optimised ones) was decoded with
    /// those, to garbage ("Corrupt JPEG data: 41989 extraneous bytes before marker 0xd9", seen
    /// with v4l2loopback fed both kinds). A fresh handle starts with the standard tables; it is
    /// taken only when such a frame follows one with tables, so a UVC camera's frames cost nothing.
    private var holdsImageTables = false

    /// Creates a decoder.
    ///
    /// - Throws: ``JPEGError/handleUnavailable`` when libjpeg-turbo cannot allocate a handle.
    public init() throws(JPEGError) {
        guard let handle = tjInitDecompress() else { throw .handleUnavailable }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// Reads the size and chroma layout from a JPEG's header without decoding it.
    ///
    /// - Throws: ``JPEGError/invalidHeader(_:)`` or ``JPEGError/unsupportedColorspace(_:)``.
    public func readHeader(_ data: UnsafeRawBufferPointer) throws(JPEGError) -> JPEGHeader {
        guard let base = data.baseAddress, data.count > 2 else { throw .invalidHeader("no data") }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            handle, base.assumingMemoryBound(to: UInt8.self), UInt(data.count), &width, &height, &subsampling,
            &colorspace)
        guard status == 0 else { throw .invalidHeader(failed()) }
        switch Int(colorspace) {
        case Int(TJCS_YCbCr.rawValue), Int(TJCS_GRAY.rawValue): break
        case Int(TJCS_CMYK.rawValue): throw .unsupportedColorspace("CMYK")
        case Int(TJCS_YCCK.rawValue): throw .unsupportedColorspace("YCCK")
        default: throw .unsupportedColorspace("RGB")
        }
        guard let layout = ChromaSubsampling(turboJPEG: subsampling) else {
            throw .invalidHeader("unknown chroma subsampling")
        }
        return JPEGHeader(width: Int(width), height: Int(height), subsampling: layout)
    }

    /// Decodes a JPEG into a new image.
    ///
    /// - Throws: ``JPEGError`` when the data is not a whole, readable YCbCr or greyscale JPEG.
    public func decode(_ data: UnsafeRawBufferPointer) throws(JPEGError) -> YCbCrImage {
        let header = try readHeader(data)
        var image = YCbCrImage(width: header.width, height: header.height, subsampling: header.subsampling)
        try decode(data, header: header, into: &image)
        return image
    }

    /// Decodes a JPEG into `image`, reusing its planes when the geometry matches (the common case for
    /// a stream of frames) and replacing them when it does not.
    ///
    /// - Throws: ``JPEGError`` when the data is not a whole, readable YCbCr or greyscale JPEG; `image`
    ///   is then in an unspecified state.
    public func decode(_ data: UnsafeRawBufferPointer, into image: inout YCbCrImage) throws(JPEGError) {
        let header = try readHeader(data)
        if image.width != header.width || image.height != header.height || image.subsampling != header.subsampling {
            image = YCbCrImage(width: header.width, height: header.height, subsampling: header.subsampling)
        }
        try decode(data, header: header, into: &image)
    }

    /// Decodes a JPEG into the top left of `image`, which is kept when it is at least the JPEG's
    /// size with its subsampling (a splicer's strip of MCUs, whose length changes from frame to
    /// frame) and replaced by the JPEG's size when it is not.
    ///
    /// - Throws: ``JPEGError`` as ``decode(_:into:)``.
    func decode(_ data: UnsafeRawBufferPointer, intoTopLeftOf image: inout YCbCrImage) throws(JPEGError) {
        let header = try readHeader(data)
        if image.width < header.width || image.height < header.height || image.subsampling != header.subsampling {
            image = YCbCrImage(width: header.width, height: header.height, subsampling: header.subsampling)
        }
        try decode(data, header: header, into: &image)
    }

    /// Decodes a JPEG held in an array.
    public func decode(_ data: [UInt8]) throws(JPEGError) -> YCbCrImage {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(JPEGError) in try decode(bytes) }
        }
        return try result.get()
    }

    private func decode(_ data: UnsafeRawBufferPointer, header: JPEGHeader, into image: inout YCbCrImage)
        throws(JPEGError)
    {
        guard let base = data.baseAddress else { throw .invalidHeader("no data") }
        let hasTables = JPEGStructure.headerSegments(of: data)?.contains { $0.marker == 0xC4 } ?? true
        if !hasTables && holdsImageTables {
            guard let fresh = tjInitDecompress() else { throw .handleUnavailable }
            tjDestroy(handle)
            handle = fresh
        }
        holdsImageTables = hasTables
        var strides = image.planes.map { Int32($0.stride) }
        let status = image.withPlanePointers { pointers in
            tjDecompressToYUVPlanes(
                handle, base.assumingMemoryBound(to: UInt8.self), UInt(data.count), pointers, Int32(header.width),
                &strides, Int32(header.height), TJFLAG_STOPONWARNING)
        }
        guard status == 0 else { throw .corrupt(failed()) }
    }

    /// The handle's error message, after which the handle is replaced: a libjpeg decompressor that
    /// failed mid-image (a frame whose header says 0 rows, for one) was seen to fail the next,
    /// whole frame too ("Bogus marker length"). A damaged frame must cost only itself.
    private func failed() -> String {
        let message = String(cString: tjGetErrorStr2(handle))
        if let fresh = tjInitDecompress() {
            tjDestroy(handle)
            handle = fresh
            holdsImageTables = false
        }
        return message
    }
}

extension ChromaSubsampling {
    /// The layout for a TurboJPEG `TJSAMP_*` value.
    init?(turboJPEG value: Int32) {
        switch value {
        case Int32(TJSAMP_444.rawValue): self = .s444
        case Int32(TJSAMP_422.rawValue): self = .s422
        case Int32(TJSAMP_420.rawValue): self = .s420
        case Int32(TJSAMP_GRAY.rawValue): self = .gray
        case Int32(TJSAMP_440.rawValue): self = .s440
        case Int32(TJSAMP_411.rawValue): self = .s411
        default: return nil
        }
    }

    /// The TurboJPEG `TJSAMP_*` value.
    var turboJPEG: Int32 {
        switch self {
        case .s444: Int32(TJSAMP_444.rawValue)
        case .s422: Int32(TJSAMP_422.rawValue)
        case .s420: Int32(TJSAMP_420.rawValue)
        case .gray: Int32(TJSAMP_GRAY.rawValue)
        case .s440: Int32(TJSAMP_440.rawValue)
        case .s411: Int32(TJSAMP_411.rawValue)
        }
    }
}
