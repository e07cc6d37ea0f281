extension YCbCrImage {
    /// The planes of a captured frame, in its own chroma layout, ready to draw on and encode.
    ///
    /// Packed 4:2:2 (YUYV, UYVY, YVYU, VYUY) and the semi-planar and planar 4:2:0 and 4:2:2 layouts
    /// (NV12, NV21, YU12, YV12, NV16, NV61, 422P) are de-interleaved row by row, honouring the
    /// driver's line padding (`bytesPerLine`); greyscale becomes a luma-only image; MJPEG is decoded
    /// with `decoder`. Limited-range samples (V4L2's default for Y'CbCr) are stretched to the full
    /// range JPEG uses, through one lookup table per plane, so stills are not washed out.
    ///
    /// - Throws: ``FrameConversionError``.
    public init(frame: VideoFrame, decoder: JPEGDecoder) throws(FrameConversionError) {
        let format = frame.format
        switch format.pixelFormat {
        case .mjpeg, .jpeg:
            do {
                self = try decoder.decode(frame.data)
            } catch {
                throw .undecodable(error)
            }
            return
        default:
            break
        }
        guard let layout = RawLayout(format.pixelFormat) else { throw .unsupportedPixelFormat(format.pixelFormat) }
        let width = Int(format.width)
        let height = Int(format.height)
        let lumaStride = max(Int(format.bytesPerLine), width * layout.lumaBytesPerPixel)
        let needed = layout.byteCount(width: width, height: height, lumaStride: lumaStride)
        guard frame.data.count >= needed else { throw .short(expected: needed, received: frame.data.count) }
        var image = YCbCrImage(width: width, height: height, subsampling: layout.subsampling)
        layout.copy(frame.data, lumaStride: lumaStride, into: &image)
        if !format.isFullRange { image.expandToFullRange() }
        self = image
    }

    /// Stretches limited-range samples (luma 16–235, chroma 16–240) to 0–255.
    mutating func expandToFullRange() {
        let luma = (0...255).map { UInt8(clamping: ((Int($0) - 16) * 255 + 109) / 219) }
        let chroma = (0...255).map {
            UInt8(clamping: ((Int($0) - 128) * 255 + (Int($0) >= 128 ? 112 : -112)) / 224 + 128)
        }
        for index in planes.indices {
            let table = index == 0 ? luma : chroma
            planes[index].bytes.withUnsafeMutableBufferPointer { samples in
                for position in samples.indices { samples[position] = table[Int(samples[position])] }
            }
        }
    }
}

/// How a raw V4L2 pixel format lays out its samples.
private enum RawLayout {
    /// Y, Cb, Cr byte offsets in each 4-byte group of two pixels.
    case packed422(y0: Int, cb: Int, y1: Int, cr: Int)
    /// A luma plane, then interleaved chroma (`cbFirst` for NV12/NV16).
    case semiPlanar(subsampling: ChromaSubsampling, cbFirst: Bool)
    /// Three planes (`cbFirst` for YU12/422P).
    case planar(subsampling: ChromaSubsampling, cbFirst: Bool)
    case grey

    init?(_ code: FourCC) {
        switch code {
        case .yuyv: self = .packed422(y0: 0, cb: 1, y1: 2, cr: 3)
        case .uyvy: self = .packed422(y0: 1, cb: 0, y1: 3, cr: 2)
        case .yvyu: self = .packed422(y0: 0, cb: 3, y1: 2, cr: 1)
        case .vyuy: self = .packed422(y0: 1, cb: 2, y1: 3, cr: 0)
        case .nv12: self = .semiPlanar(subsampling: .s420, cbFirst: true)
        case .nv21: self = .semiPlanar(subsampling: .s420, cbFirst: false)
        case .nv16: self = .semiPlanar(subsampling: .s422, cbFirst: true)
        case .nv61: self = .semiPlanar(subsampling: .s422, cbFirst: false)
        case .yuv420: self = .planar(subsampling: .s420, cbFirst: true)
        case .yvu420: self = .planar(subsampling: .s420, cbFirst: false)
        case .yuv422p: self = .planar(subsampling: .s422, cbFirst: true)
        case .grey: self = .grey
        default: return nil
        }
    }

    var subsampling: ChromaSubsampling {
        switch self {
        case .packed422: .s422
        case .semiPlanar(let subsampling, _), .planar(let subsampling, _): subsampling
        case .grey: .gray
        }
    }

    var lumaBytesPerPixel: Int {
        if case .packed422 = self { return 2 }
        return 1
    }

    /// Bytes a frame needs: the driver pads each plane's lines to the luma stride (halved for the
    /// planar formats' chroma planes, as V4L2 specifies).
    func byteCount(width: Int, height: Int, lumaStride: Int) -> Int {
        let chroma = YCbCrImage.chromaSize(width: width, height: height, subsampling: subsampling)
        switch self {
        case .packed422, .grey: return lumaStride * (height - 1) + width * lumaBytesPerPixel
        case .semiPlanar: return lumaStride * height + lumaStride * (chroma.height - 1) + chroma.width * 2
        case .planar: return lumaStride * height + (lumaStride / 2) * (chroma.height * 2 - 1) + chroma.width
        }
    }

    func copy(_ data: [UInt8], lumaStride: Int, into image: inout YCbCrImage) {
        let width = image.width
        let height = image.height
        data.withUnsafeBufferPointer { source in
            switch self {
            case .packed422(let y0, let cb, let y1, let cr):
                for row in 0..<height {
                    let line = row * lumaStride
                    for pair in 0..<(width / 2) {
                        let group = line + pair * 4
                        image.planes[0][pair * 2, row] = source[group + y0]
                        image.planes[0][pair * 2 + 1, row] = source[group + y1]
                        image.planes[1][pair, row] = source[group + cb]
                        image.planes[2][pair, row] = source[group + cr]
                    }
                }
            case .grey, .semiPlanar, .planar:
                for row in 0..<height {
                    for column in 0..<width { image.planes[0][column, row] = source[row * lumaStride + column] }
                }
                guard image.planes.count == 3 else { return }
                let chromaWidth = image.planes[1].width
                let chromaHeight = image.planes[1].height
                let start = lumaStride * height
                if case .semiPlanar(_, let cbFirst) = self {
                    let (cbOffset, crOffset) = cbFirst ? (0, 1) : (1, 0)
                    for row in 0..<chromaHeight {
                        for column in 0..<chromaWidth {
                            let at = start + row * lumaStride + column * 2
                            image.planes[1][column, row] = source[at + cbOffset]
                            image.planes[2][column, row] = source[at + crOffset]
                        }
                    }
                } else if case .planar(_, let cbFirst) = self {
                    let chromaStride = lumaStride / 2
                    let second = start + chromaStride * chromaHeight
                    let (cbStart, crStart) = cbFirst ? (start, second) : (second, start)
                    for row in 0..<chromaHeight {
                        for column in 0..<chromaWidth {
                            image.planes[1][column, row] = source[cbStart + row * chromaStride + column]
                            image.planes[2][column, row] = source[crStart + row * chromaStride + column]
                        }
                    }
                }
            }
        }
    }
}
