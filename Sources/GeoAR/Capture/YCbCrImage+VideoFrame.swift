import ArcaptureCore
import CaptureKit
import JPEGKit

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

    /// Converts `frame` into this image's storage, as ``init(frame:decoder:)`` does, reusing the
    /// planes when the size and layout are the same: a live stream of same-sized frames then
    /// allocates (and clears) no new planes, frame after frame.
    ///
    /// - Throws: ``FrameConversionError``; the image is left unusable then.
    public mutating func replace(with frame: VideoFrame, decoder: JPEGDecoder) throws(FrameConversionError) {
        let format = frame.format
        switch format.pixelFormat {
        case .mjpeg, .jpeg:
            let result = frame.data.withUnsafeBytes { raw in
                Result { () throws(JPEGError) in try decoder.decode(raw, into: &self) }
            }
            if case .failure(let error) = result { throw .undecodable(error) }
            return
        default:
            break
        }
        guard let layout = RawLayout(format.pixelFormat), width == Int(format.width), height == Int(format.height),
            subsampling == layout.subsampling
        else {
            self = try YCbCrImage(frame: frame, decoder: decoder)
            return
        }
        let lumaStride = max(Int(format.bytesPerLine), width * layout.lumaBytesPerPixel)
        let needed = layout.byteCount(width: width, height: height, lumaStride: lumaStride)
        guard frame.data.count >= needed else { throw .short(expected: needed, received: frame.data.count) }
        layout.copy(frame.data, lumaStride: lumaStride, into: &self)
        if !format.isFullRange { expandToFullRange() }
    }

    /// The mean luma of a raw frame (0–255), sampled on a grid of every fourth pixel and row,
    /// straight from the driver's bytes (no conversion); nil for MJPEG and other formats.
    public static func meanLuma(of frame: VideoFrame) -> Double? {
        guard let layout = RawLayout(frame.format.pixelFormat) else { return nil }
        let width = Int(frame.format.width)
        let height = Int(frame.format.height)
        let bytesPerPixel = layout.lumaBytesPerPixel
        let stride = max(Int(frame.format.bytesPerLine), width * bytesPerPixel)
        let lumaOffset: Int
        if case .packed422(let y0, _, _, _) = layout { lumaOffset = y0 } else { lumaOffset = 0 }
        guard frame.data.count >= layout.byteCount(width: width, height: height, lumaStride: stride) else { return nil }
        return frame.data.withUnsafeBufferPointer { bytes in
            var total = 0
            var count = 0
            for row in Swift.stride(from: 0, to: height, by: 4) {
                for column in Swift.stride(from: 0, to: width, by: 4) {
                    total += Int(bytes[row * stride + column * bytesPerPixel + (bytesPerPixel == 2 ? lumaOffset : 0)])
                    count += 1
                }
            }
            return count == 0 ? nil : Double(total) / Double(count)
        }
    }

    /// Stretches limited-range samples (luma 16–235, chroma 16–240) to 0–255, as JPEG holds them.
    public mutating func expandToFullRange() {
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

    /// De-interleaves `data` into `image`'s planes. Works through raw pointers: this runs on every
    /// captured frame, and per-sample array subscripts cost several times more.
    func copy(_ data: [UInt8], lumaStride: Int, into image: inout YCbCrImage) {
        let width = image.width
        let height = image.height
        let strides = image.planes.map(\.stride)
        let chromaWidth = image.planes.count == 3 ? image.planes[1].width : 0
        let chromaHeight = image.planes.count == 3 ? image.planes[1].height : 0
        data.withUnsafeBufferPointer { buffer in
            guard let source = buffer.baseAddress else { return }
            image.withPlanePointers { planes in
                guard let luma = planes[0] else { return }
                switch self {
                case .packed422(let y0, let cb, let y1, let cr):
                    guard let blue = planes[1], let red = planes[2] else { return }
                    for row in 0..<height {
                        var group = source + row * lumaStride
                        var y = luma + row * strides[0]
                        var u = blue + row * strides[1]
                        var v = red + row * strides[2]
                        for _ in 0..<(width / 2) {
                            y[0] = group[y0]
                            y[1] = group[y1]
                            u.pointee = group[cb]
                            v.pointee = group[cr]
                            group += 4
                            y += 2
                            u += 1
                            v += 1
                        }
                    }
                case .grey, .semiPlanar, .planar:
                    for row in 0..<height {
                        (luma + row * strides[0]).update(from: source + row * lumaStride, count: width)
                    }
                    guard let blue = planes[1], let red = planes[2] else { return }
                    let start = source + lumaStride * height
                    if case .semiPlanar(_, let cbFirst) = self {
                        let (cbOffset, crOffset) = cbFirst ? (0, 1) : (1, 0)
                        for row in 0..<chromaHeight {
                            let line = start + row * lumaStride
                            let u = blue + row * strides[1]
                            let v = red + row * strides[2]
                            for column in 0..<chromaWidth {
                                u[column] = line[column * 2 + cbOffset]
                                v[column] = line[column * 2 + crOffset]
                            }
                        }
                    } else if case .planar(_, let cbFirst) = self {
                        let chromaStride = lumaStride / 2
                        let second = start + chromaStride * chromaHeight
                        let (cbStart, crStart) = cbFirst ? (start, second) : (second, start)
                        for row in 0..<chromaHeight {
                            (blue + row * strides[1]).update(from: cbStart + row * chromaStride, count: chromaWidth)
                            (red + row * strides[2]).update(from: crStart + row * chromaStride, count: chromaWidth)
                        }
                    }
                }
            }
        }
    }
}
