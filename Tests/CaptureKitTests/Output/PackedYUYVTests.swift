import Testing

@testable import ArcaptureCore
@testable import CaptureKit

/// What a virtual camera writes: planes packed as V4L2's YUYV (Y0 Cb Y1 Cr per pair of pixels).
@Suite("YCbCr planes packed as YUYV")
struct PackedYUYVTests {
    /// An image whose every sample says where it is: luma 10·y + x, Cb 100 + 10·y + x, Cr 200 + ….
    static func numbered(_ subsampling: ChromaSubsampling) -> YCbCrImage {
        var image = YCbCrImage(width: 4, height: 2, subsampling: subsampling)
        for plane in image.planes.indices {
            for y in 0..<image.planes[plane].height {
                for x in 0..<image.planes[plane].width {
                    image.planes[plane][x, y] = UInt8(plane * 100 + y * 10 + x)
                }
            }
        }
        return image
    }

    @Test("4:2:2 planes interleave as Y0 Cb Y1 Cr, row by row")
    func fourTwoTwo() {
        let packed = Self.numbered(.s422).packedYUYV(limitedRange: false)
        #expect(packed == [0, 100, 1, 200, 2, 101, 3, 201, 10, 110, 11, 210, 12, 111, 13, 211])
    }

    @Test("4:2:0 chroma serves both rows of its pair")
    func fourTwoZero() {
        let packed = Self.numbered(.s420).packedYUYV(limitedRange: false)
        #expect(packed == [0, 100, 1, 200, 2, 101, 3, 201, 10, 100, 11, 200, 12, 101, 13, 201])
    }

    @Test("greyscale gets neutral chroma")
    func grey() {
        let packed = Self.numbered(.gray).packedYUYV(limitedRange: false)
        #expect(packed == [0, 128, 1, 128, 2, 128, 3, 128, 10, 128, 11, 128, 12, 128, 13, 128])
    }

    @Test("full-range samples are compressed to V4L2's limited range, rounded to the nearest")
    func limitedRange() {
        var image = YCbCrImage(width: 4, height: 1, subsampling: .s422)
        for (x, value) in [0, 255, 128, 100].enumerated() { image.planes[0][x, 0] = UInt8(value) }
        for (x, value) in [0, 255].enumerated() {
            image.planes[1][x, 0] = UInt8(value)
            image.planes[2][x, 0] = UInt8(255 - value)
        }
        // Luma 0→16, 255→235, 128→126 (16 + 110.1), 100→102 (16 + 85.9); chroma 0→16, 255→240.
        #expect(image.packedYUYV() == [16, 16, 235, 240, 126, 240, 102, 16])
    }
}
