import Foundation
import TestSupport
import Testing

@testable import CaptureKit

@Suite("JPEG decoder after a damaged frame")
struct JPEGDecoderRecoveryTests {
    @Test("a frame whose header says 0 pixels wide fails alone: the same decoder reads the next frame")
    func recovers() throws {
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("frames/lund-640x480.jpg"))))
        var broken = good
        let sof = try #require((2..<(broken.count - 9)).first { broken[$0] == 0xFF && broken[$0 + 1] == 0xC0 })
        broken[sof + 7] = 0
        broken[sof + 8] = 0
        let decoder = try JPEGDecoder()
        #expect(throws: JPEGError.self) { try decoder.decode(broken) }
        let image = try decoder.decode(good)
        #expect(image.width == 640 && image.height == 480)
    }
}
