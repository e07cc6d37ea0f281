import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import JPEGKit

/// Which header segments a re-encoded photo keeps (those describing the picture) and which it
/// leaves to the encoder (those describing the bytes replaced), on a JPEG built segment by segment.
@Suite("Photo metadata")
struct PhotoMetadataTests {
    /// A header segment: `marker`, its length, then `payload`.
    private func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    private func segment(_ marker: UInt8, _ text: String) -> [UInt8] { segment(marker, Array(text.utf8)) }

    @Test("kept: EXIF, both ICC chunks, XMP, IPTC, a comment, other APPn; left out: JFIF, JFXX, MPF, Adobe")
    func keptAndLeftOut() throws {
        let encoded = try JPEGEncoder().encode(YCbCrImage(width: 16, height: 16, subsampling: .s420), quality: 80)
        let exif = try #require(
            EXIFSegment(
                inJPEG: [UInt8](
                    try Data(contentsOf: URL(fileURLWithPath: PackagePaths.sample("photos/lund_01.jpg")))))
        ).bytes
        let kept = [
            exif, segment(0xE2, "ICC_PROFILE\0\u{1}\u{2}first half"), segment(0xE2, "ICC_PROFILE\0\u{2}\u{2}second"),
            segment(0xE1, "http://ns.adobe.com/xap/1.0/\0<x tiff:Orientation=\"1\"/>"),
            segment(0xED, "Photoshop 3.0\08BIM"), segment(0xFE, "a comment"), segment(0xEB, "JP HDR gain map"),
        ]
        let dropped = [
            segment(0xE0, "JFIF\0\u{1}\u{2}\0\0\u{1}\0\u{1}\0\0"), segment(0xE0, "JFXX\0\u{10}"),
            segment(0xE2, "MPF\0MM\0*"), segment(0xEE, "Adobe\0d\0\0\0\0\u{1}"),
        ]
        // The photo: SOI, the segments interleaved, then the encoder's tables, frame and scan.
        let tablesStart = try #require(JPEGStructure.headerSegments(of: encoded)?.first { $0.marker != 0xE0 })
        let photo =
            [0xFF, 0xD8] + dropped[0] + kept[0] + dropped[1] + kept[1] + kept[2] + dropped[2] + kept[3] + kept[4]
            + dropped[3] + kept[5] + kept[6] + encoded[tablesStart.range.lowerBound...]
        let metadata = try #require(PhotoMetadata(inJPEG: photo))
        #expect(metadata.exif?.bytes == exif)
        #expect(metadata.upright() == kept)

        // Into the encoder's output: after its JFIF, in the photo's order; inserted twice, not doubled.
        let combined = JPEGStructure.inserting(metadata: metadata.upright(), into: encoded)
        let found = try #require(JPEGStructure.headerSegments(of: combined))
        #expect(found.first?.marker == 0xE0)
        #expect(found.dropFirst().prefix(kept.count).map { Array(combined[$0.range]) } == kept)
        #expect(JPEGStructure.inserting(metadata: metadata.upright(), into: combined) == combined)
        #expect(try JPEGDecoder().decode(combined).width == 16)

        // A spliced copy keeps its header but for the Multi-Picture index.
        let withoutIndex = JPEGStructure.removingMultiPictureIndex(from: photo)
        #expect(withoutIndex.count == photo.count - dropped[2].count)
        let segmentCount = try #require(JPEGStructure.headerSegments(of: photo)).count
        #expect(JPEGStructure.headerSegments(of: withoutIndex)?.count == segmentCount - 1)
        #expect(JPEGStructure.removingMultiPictureIndex(from: withoutIndex) == withoutIndex)
        // A photo with only what is left out has nothing to keep.
        #expect(
            PhotoMetadata(inJPEG: [0xFF, 0xD8] + dropped[0] + dropped[3] + encoded[tablesStart.range.lowerBound...])
                == nil)
    }

    @Test(
        "XMP's tiff:Orientation becomes 1, as an attribute or an element; nothing else changes",
        arguments: [
            ("<d tiff:Orientation=\"6\"/>", "<d tiff:Orientation=\"1\"/>"),
            ("<d tiff:Orientation = '8' />", "<d tiff:Orientation = '1' />"),
            ("<tiff:Orientation>3</tiff:Orientation>", "<tiff:Orientation>1</tiff:Orientation>"),
            ("<d tiff:OrientationX=\"6\"/>", "<d tiff:OrientationX=\"6\"/>"),
            ("<d tiff:Orientation=\"16\"/>", "<d tiff:Orientation=\"16\"/>"),
            ("<d exif:Orientation=\"6\"/>", "<d exif:Orientation=\"6\"/>"),
            ("tiff:Orientation=\"", "tiff:Orientation=\""),
        ])
    func xmpOrientation(xmp: String, upright: String) {
        let header = "http://ns.adobe.com/xap/1.0/\0"
        #expect(
            PhotoMetadata.uprightXMP(segment(0xE1, header + xmp)) == segment(0xE1, header + upright))
    }
}
