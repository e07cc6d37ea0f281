import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import JPEGKit

/// Turning a stored picture upright, against EXIF 2.32's definition of each Orientation value
/// (which stored row and column become the picture's top and left), and the EXIF block kept.
@Suite("Image orientation")
struct ImageOrientationTests {
    /// A 3x2 image whose luma is 10 × row + column.
    private var stored: YCbCrImage {
        var image = YCbCrImage(width: 3, height: 2, subsampling: .s444)
        for y in 0..<2 { for x in 0..<3 { image.planes[0][x, y] = UInt8(10 * y + x) } }
        return image
    }

    @Test(
        "the upright picture's top-left and top-right samples are the stored ones EXIF says",
        arguments: [
            // (orientation, upright top-left, upright top-right), stored as 10 × row + column.
            (ImageOrientation.up, 0, 2), (.upMirrored, 2, 0), (.down, 12, 10), (.downMirrored, 10, 12),
            // Quarter turns: 2 wide, 3 tall. 6: stored row 0 is the right side, column 0 the top.
            (.leftMirrored, 0, 10), (.right, 10, 0), (.rightMirrored, 12, 2), (.left, 2, 12),
        ])
    func corners(orientation: ImageOrientation, topLeft: Int, topRight: Int) {
        let upright = stored.turnedUpright(orientation)
        #expect(upright.width == (orientation.swapsAxes ? 2 : 3) && upright.height == (orientation.swapsAxes ? 3 : 2))
        let luma = upright.planes[0]
        #expect(Int(luma[0, 0]) == topLeft)
        #expect(Int(luma[upright.width - 1, 0]) == topRight)
    }

    @Test("a quarter turn makes 4:2:2 chroma 4:4:0 (and back), sample for sample; 4:2:0 stays")
    func chromaLayouts() {
        let wide = YCbCrImage(width: 640, height: 480, subsampling: .s422)
        let tall = wide.turnedUpright(.right)
        #expect(tall.subsampling == .s440 && tall.width == 480 && tall.height == 640)
        #expect(tall.planes[1].width == 480 && tall.planes[1].height == 320)
        #expect(tall.turnedUpright(.left).subsampling == .s422)
        #expect(YCbCrImage(width: 641, height: 479, subsampling: .s420).turnedUpright(.right).subsampling == .s420)
    }

    @Test("the EXIF block of a real photo is kept whole but for its orientation, set to 1")
    func segmentKept() throws {
        let photo = [UInt8](try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("photos/lund_01.jpg"))))
        let segment = try #require(EXIFSegment(inJPEG: photo))
        #expect(segment.orientation == .up)
        #expect(segment.upright() == segment.bytes)
        // Into a JPEG without EXIF: after the JFIF header, and read back the same.
        let encoded = try JPEGEncoder().encode(YCbCrImage(width: 16, height: 16, subsampling: .s420), quality: 80)
        let combined = JPEGStructure.inserting(metadata: [segment.upright()], into: encoded)
        #expect(EXIFSegment(inJPEG: combined)?.bytes == segment.bytes)
        #expect(EXIFReader.geotag(inJPEG: combined) == EXIFReader.geotag(inJPEG: photo))
        #expect(try JPEGDecoder().decode(combined).width == 16)
        // Inserted twice: one EXIF block, not two.
        let twice = JPEGStructure.inserting(metadata: [segment.upright()], into: combined)
        #expect(twice.count == combined.count)
    }
}
