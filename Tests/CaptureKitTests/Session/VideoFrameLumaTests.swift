import ArcaptureCore
import Testing

@testable import CaptureKit

/// A raw frame's luma, read for `check`'s picture verdict, in every layout it reads.
@Suite("A frame's luma statistics")
struct VideoFrameLumaTests {
    static func frame(_ fourCC: FourCC, width: Int, height: Int, bytesPerLine: Int, bytes: [UInt8]) -> VideoFrame {
        VideoFrame(
            data: bytes,
            format: V4L2Format(
                pixelFormat: fourCC, width: UInt32(width), height: UInt32(height),
                bytesPerLine: UInt32(bytesPerLine), sizeImage: UInt32(bytes.count)),
            sequence: 0, droppedBefore: 0, timestampNanoseconds: 0, captureDate: .init(timeIntervalSince1970: 0),
            flags: [])
    }

    /// Luma of a 128x96 picture: its left half 40, its right half 200 (mean 120, spread 80).
    static func luma(_ x: Int, _ y: Int) -> UInt8 { x < 64 ? 40 : 200 }

    @Test("packed 4:2:2 (Y first or second), planar and semi-planar (Y plane first), RGB and BGR by BT.601")
    func layouts() throws {
        let (width, height) = (128, 96)
        var yuyv = [UInt8](repeating: 0, count: width * 2 * height)
        var uyvy = yuyv
        for y in 0..<height {
            for x in 0..<width {
                yuyv[y * width * 2 + x * 2] = Self.luma(x, y)
                yuyv[y * width * 2 + x * 2 + 1] = 90  // chroma, which must not be read as luma
                uyvy[y * width * 2 + x * 2 + 1] = Self.luma(x, y)
                uyvy[y * width * 2 + x * 2] = 90
            }
        }
        // NV12 with rows padded to 160 bytes: the padding (255) is never read.
        var nv12 = [UInt8](repeating: 255, count: 160 * height * 3 / 2)
        for y in 0..<height { for x in 0..<width { nv12[y * 160 + x] = Self.luma(x, y) } }
        var rgb = [UInt8](repeating: 0, count: width * 3 * height)
        var bgr = rgb
        for y in 0..<height {
            for x in 0..<width {
                // Pure green at 0.587's weight: luma 40 is G 68, luma 200 is G 255 (rounded 150).
                rgb[y * width * 3 + x * 3 + 1] = x < 64 ? 68 : 255
                bgr[y * width * 3 + x * 3 + 1] = x < 64 ? 68 : 255
                bgr[y * width * 3 + x * 3] = 0
            }
        }
        let cases: [(FourCC, Int, [UInt8], Double, Double)] = [
            (.yuyv, width * 2, yuyv, 120, 80), (.uyvy, width * 2, uyvy, 120, 80), (.nv12, 160, nv12, 120, 80),
            (.grey, 160, nv12, 120, 80), (.rgb24, width * 3, rgb, 95, 55), (.bgr24, width * 3, bgr, 95, 55),
        ]
        for (fourCC, bytesPerLine, bytes, mean, spread) in cases {
            let statistics = try #require(
                Self.frame(fourCC, width: width, height: height, bytesPerLine: bytesPerLine, bytes: bytes)
                    .lumaStatistics, "\(fourCC)")
            #expect(abs(statistics.mean - mean) < 0.01, "\(fourCC): mean \(statistics.mean)")
            #expect(abs(statistics.spread - spread) < 0.01, "\(fourCC): spread \(statistics.spread)")
            #expect(statistics.samples == 64 * 48)
        }
    }

    @Test("no statistics for a compressed frame, a short (damaged) one, or an empty picture")
    func unread() {
        let mjpeg = Self.frame(.mjpeg, width: 64, height: 48, bytesPerLine: 0, bytes: [0xFF, 0xD8, 0xFF, 0xD9])
        #expect(mjpeg.lumaStatistics == nil)
        let short = Self.frame(
            .yuyv, width: 64, height: 48, bytesPerLine: 128, bytes: [UInt8](repeating: 1, count: 6000))
        #expect(short.lumaStatistics == nil, "6000 bytes where 6144 are needed")
        #expect(LumaStatistics(width: 0, height: 10) { _, _ in 0 } == nil)
        // A picture smaller than the grid: every pixel once.
        let tiny = LumaStatistics(width: 2, height: 1) { x, _ in x == 0 ? 0 : 100 }
        #expect(tiny?.samples == 2 && tiny?.mean == 50 && tiny?.spread == 50)
    }
}
