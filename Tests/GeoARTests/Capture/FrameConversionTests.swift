import Testing

@testable import ArcaptureCore
@testable import CaptureKit
@testable import GeoAR
@testable import JPEGKit

/// Raw V4L2 layouts into planes, against frames packed here by hand from known planes.
@Suite("Raw frames to YCbCr planes")
struct FrameConversionTests {
    static let width = 6
    static let height = 4

    /// Distinct, recognisable samples: luma 10·y + x + 20, Cb 100 + …, Cr 200 − …, all full range.
    static func sample(_ plane: Int, _ x: Int, _ y: Int) -> UInt8 {
        switch plane {
        case 0: UInt8(20 + 10 * y + x)
        case 1: UInt8(100 + 10 * y + x)
        default: UInt8(200 - 10 * y - x)
        }
    }

    static func frame(_ fourCC: FourCC, bytes: [UInt8], bytesPerLine: Int) -> VideoFrame {
        var format = V4L2Format(
            pixelFormat: fourCC, width: UInt32(width), height: UInt32(height), bytesPerLine: UInt32(bytesPerLine),
            sizeImage: UInt32(bytes.count))
        format.quantization = 1  // full range: compare samples unchanged
        return VideoFrame(
            data: bytes, format: format, sequence: 0, droppedBefore: 0, timestampNanoseconds: 0,
            captureDate: .init(timeIntervalSince1970: 0), flags: [])
    }

    func expectPlanes(_ image: YCbCrImage, subsampling: ChromaSubsampling) {
        #expect(image.subsampling == subsampling)
        for y in 0..<Self.height {
            for x in 0..<Self.width { #expect(image.planes[0][x, y] == Self.sample(0, x, y)) }
        }
        guard subsampling != .gray else { return }
        for plane in 1...2 {
            for y in 0..<image.planes[plane].height {
                for x in 0..<image.planes[plane].width {
                    #expect(image.planes[plane][x, y] == Self.sample(plane, x, y))
                }
            }
        }
    }

    @Test("packed 4:2:2 in all four orders, with line padding", arguments: [FourCC.yuyv, .uyvy, .yvyu, .vyuy])
    func packed(code: FourCC) throws {
        let order: [Int] =
            switch code {
            case .yuyv: [0, 1, 0, 2]
            case .uyvy: [1, 0, 2, 0]
            case .yvyu: [0, 2, 0, 1]
            default: [2, 0, 1, 0]
            }
        let stride = Self.width * 2 + 4  // 4 bytes of padding per line
        var bytes = [UInt8](repeating: 0xEE, count: stride * Self.height)
        for y in 0..<Self.height {
            for pair in 0..<(Self.width / 2) {
                var lumaIndex = 0
                for (offset, plane) in order.enumerated() {
                    let x = plane == 0 ? pair * 2 + lumaIndex : pair
                    if plane == 0 { lumaIndex += 1 }
                    bytes[y * stride + pair * 4 + offset] = Self.sample(plane, x, y)
                }
            }
        }
        let image = try YCbCrImage(frame: Self.frame(code, bytes: bytes, bytesPerLine: stride), decoder: JPEGDecoder())
        expectPlanes(image, subsampling: .s422)
        // Converted into an image already holding other samples of the same layout (a live stream's
        // reused planes): the same planes, every sample written.
        var reused = YCbCrImage(width: Self.width, height: Self.height, subsampling: .s422)
        for plane in 0..<3 { reused.planes[plane].bytes = reused.planes[plane].bytes.map { _ in 0x55 } }
        try reused.replace(with: Self.frame(code, bytes: bytes, bytesPerLine: stride), decoder: JPEGDecoder())
        expectPlanes(reused, subsampling: .s422)
        // Into planes of another size, it makes new ones.
        var other = YCbCrImage(width: 16, height: 16, subsampling: .s420)
        try other.replace(with: Self.frame(code, bytes: bytes, bytesPerLine: stride), decoder: JPEGDecoder())
        expectPlanes(other, subsampling: .s422)
    }

    @Test(
        "semi-planar and planar 4:2:0 and 4:2:2, and greyscale",
        arguments: [FourCC.nv12, .nv21, .nv16, .nv61, .yuv420, .yvu420, .yuv422p, .grey])
    func planar(code: FourCC) throws {
        let subsampling: ChromaSubsampling =
            [.nv12, .nv21, .yuv420, .yvu420].contains(code) ? .s420 : (code == .grey ? .gray : .s422)
        let chroma = YCbCrImage.chromaSize(width: Self.width, height: Self.height, subsampling: subsampling)
        let stride = Self.width + 2
        var bytes: [UInt8] = []
        for y in 0..<Self.height {
            bytes += (0..<Self.width).map { Self.sample(0, $0, y) } + [0xEE, 0xEE]
        }
        switch code {
        case .nv12, .nv21, .nv16, .nv61:
            let cbFirst = code == .nv12 || code == .nv16
            for y in 0..<chroma.height {
                var line: [UInt8] = []
                for x in 0..<chroma.width {
                    line +=
                        cbFirst
                        ? [Self.sample(1, x, y), Self.sample(2, x, y)] : [Self.sample(2, x, y), Self.sample(1, x, y)]
                }
                bytes += line + [UInt8](repeating: 0xEE, count: stride - line.count)
            }
        case .yuv420, .yvu420, .yuv422p:
            let order = code == .yvu420 ? [2, 1] : [1, 2]
            for plane in order {
                for y in 0..<chroma.height {
                    bytes += (0..<chroma.width).map { Self.sample(plane, $0, y) } + [0xEE]  // stride / 2 = 4
                }
            }
        default:
            break
        }
        let image = try YCbCrImage(frame: Self.frame(code, bytes: bytes, bytesPerLine: stride), decoder: JPEGDecoder())
        expectPlanes(image, subsampling: subsampling)
    }

    @Test("limited-range samples are stretched to full range")
    func range() throws {
        var frame = Self.frame(
            .grey, bytes: [16, 235, 126, 0, 255, 16] + [UInt8](repeating: 16, count: 18), bytesPerLine: 6)
        frame.format.quantization = 0  // V4L2's default for Y'CbCr: limited
        let image = try YCbCrImage(frame: frame, decoder: JPEGDecoder())
        #expect(Array(image.planes[0].bytes.prefix(6)) == [0, 255, 128, 0, 255, 0])
        var colour = YCbCrImage(width: 2, height: 1, subsampling: .s444)
        colour.planes[1].bytes = [16, 240]
        colour.planes[2].bytes = [128, 128]
        colour.expandToFullRange()
        #expect(colour.planes[1].bytes == [0, 255])
        #expect(colour.planes[2].bytes == [128, 128])
    }

    @Test("short frames and unsupported formats are errors, not crashes")
    func errors() {
        #expect(throws: FrameConversionError.short(expected: 48, received: 10)) {  // 3 padded lines + one of 12 bytes
            try YCbCrImage(
                frame: Self.frame(.yuyv, bytes: [UInt8](repeating: 0, count: 10), bytesPerLine: 12),
                decoder: JPEGDecoder())
        }
        #expect(throws: FrameConversionError.unsupportedPixelFormat(.rgb24)) {
            try YCbCrImage(frame: Self.frame(.rgb24, bytes: [], bytesPerLine: 18), decoder: JPEGDecoder())
        }
    }
}
