import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import JPEGKit

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

@Suite("JPEG decoder across frames with and without Huffman tables")
struct JPEGDecoderTableTests {
    /// libjpeg keeps a decompressor's tables from image to image; a frame without DHT means the
    /// standard tables, not the last frame's.
    @Test("a frame without tables after one with its own decodes as it does on a fresh decoder")
    func standardTablesAfterOwnTables() throws {
        // The sample clip's first frame: ffmpeg's encoder writes Huffman tables optimised for it.
        let clip = Array(try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("footage/harbour.mjpeg"))))
        let end = try #require((2..<clip.count - 1).first { clip[$0] == 0xFF && clip[$0 + 1] == 0xD9 })
        let own = Array(clip[...(end + 1)])
        #expect(JPEGStructure.headerSegments(of: own)?.contains { $0.marker == 0xC4 } == true)
        let webcam = try Fixtures.webcamFrame()
        #expect(JPEGStructure.headerSegments(of: webcam)?.contains { $0.marker == 0xC4 } == false)
        let expected = try JPEGDecoder().decode(webcam)
        let decoder = try JPEGDecoder()
        for _ in 0..<2 {
            _ = try decoder.decode(own)
            let decoded = try decoder.decode(webcam)
            #expect(decoded == expected)
        }
    }
}
