import ArcaptureCore

/// What an annotated copy of a photo keeps of the photo: its header segments that describe the
/// picture rather than its encoding — EXIF (time, GPS, camera), the ICC colour profile (APP2
/// `ICC_PROFILE`, every chunk), XMP (APP1, extended XMP included), IPTC (APP13 `Photoshop 3.0`),
/// comments and any other application segment — in their order, as `jpegtran -copy all` and
/// exiftool keep them.
///
/// Left out are the segments that describe the bytes being replaced, which the encoder writes
/// afresh or which would then be wrong: JFIF/JFXX (APP0), Adobe's colour transform (APP14), and
/// the Multi-Picture Format index (APP2 `MPF`), whose offsets point at images after the first
/// picture's end that a re-encoded copy does not carry. Without the ICC profile, a photo taken
/// in Display P3 or Adobe RGB is shown with sRGB's primaries: its colours change.
public struct PhotoMetadata: Sendable {
    /// One kept segment, from its FF marker to its end.
    private enum Segment: Sendable {
        case exif(EXIFSegment)
        case xmp([UInt8])
        case other([UInt8])
    }

    private let segments: [Segment]

    /// The EXIF block, when the photo has one: its orientation says how the picture is shown.
    public let exif: EXIFSegment?

    /// The metadata of the JPEG in `jpeg`; nil when its header cannot be read or it holds nothing
    /// to keep.
    public init?(inJPEG jpeg: [UInt8]) {
        guard let found = JPEGStructure.headerSegments(of: jpeg) else { return nil }
        var segments: [Segment] = []
        var exif: EXIFSegment?
        for (marker, range) in found where Self.keeps(marker: marker, range: range, in: jpeg) {
            let bytes = Array(jpeg[range])
            if exif == nil && EXIFSegment.isEXIF(marker: marker, range: range, in: jpeg),
                let segment = EXIFSegment(bytes: bytes)
            {
                exif = segment
                segments.append(.exif(segment))
            } else if marker == 0xE1 && JPEGStructure.hasIdentifier(XMPPacket.identifier, range: range, in: jpeg) {
                segments.append(.xmp(bytes))
            } else {
                segments.append(.other(bytes))
            }
        }
        guard !segments.isEmpty else { return nil }
        self.segments = segments
        self.exif = exif
    }

    /// The segments for a copy written upright, in the photo's order: the EXIF block's
    /// orientation set to 1 (its pixel dimensions swapped when the picture was turned a quarter),
    /// and XMP's `tiff:Orientation` set to 1 too, so that no viewer turns the picture again.
    public func upright() -> [[UInt8]] {
        segments.map { segment in
            switch segment {
            case .exif(let exif): exif.upright()
            case .xmp(let bytes): Self.uprightXMP(bytes)
            case .other(let bytes): bytes
            }
        }
    }

    /// Whether the header segment `marker` at `range` is kept: application segments (APP0–APP15)
    /// and comments, except those that describe the encoding (see the type's description).
    static func keeps(marker: UInt8, range: Range<Int>, in jpeg: [UInt8]) -> Bool {
        switch marker {
        case 0xFE: true
        case 0xE0:
            !(JPEGStructure.hasIdentifier(Array("JFIF\0".utf8), range: range, in: jpeg)
                || JPEGStructure.hasIdentifier(Array("JFXX\0".utf8), range: range, in: jpeg))
        case 0xE2: !JPEGStructure.hasIdentifier(Array("MPF\0".utf8), range: range, in: jpeg)
        case 0xEE: !JPEGStructure.hasIdentifier(Array("Adobe".utf8), range: range, in: jpeg)
        case 0xE1...0xEF: true
        default: false
        }
    }

    /// `segment` (an XMP APP1) with each `tiff:Orientation` value of one digit, as an attribute
    /// (`tiff:Orientation="6"`) or an element (`<tiff:Orientation>6<`), replaced by 1. The
    /// length stays the same, so the segment's length field does too.
    static func uprightXMP(_ segment: [UInt8]) -> [UInt8] {
        var result = segment
        let name = Array("tiff:Orientation".utf8)
        var index = 4
        while index + name.count + 3 <= result.count {
            guard result[index..<(index + name.count)].elementsEqual(name) else {
                index += 1
                continue
            }
            var at = index + name.count
            // `="6"` or `='6'` (whitespace allowed around `=`), or `>6<`.
            while at < result.count && (result[at] == 0x20 || result[at] == 0x09) { at += 1 }
            if at < result.count && result[at] == UInt8(ascii: "=") {
                at += 1
                while at < result.count && (result[at] == 0x20 || result[at] == 0x09) { at += 1 }
                if at < result.count && (result[at] == UInt8(ascii: "\"") || result[at] == UInt8(ascii: "'")) {
                    at += 1
                } else {
                    at = result.count
                }
            } else if at < result.count && result[at] == UInt8(ascii: ">") {
                at += 1
            } else {
                at = result.count
            }
            if at + 1 < result.count, (UInt8(ascii: "1")...UInt8(ascii: "8")).contains(result[at]),
                [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<")].contains(result[at + 1])
            {
                result[at] = UInt8(ascii: "1")
            }
            index += name.count
        }
        return result
    }
}
