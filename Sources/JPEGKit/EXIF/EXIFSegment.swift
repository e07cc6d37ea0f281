import ArcaptureCore

/// A JPEG's EXIF block (its APP1 `Exif` segment), kept to be written into an annotated copy so
/// that the photo's time, GPS position and camera survive, with its orientation.
///
/// Only the bytes that change are touched: the Orientation tag is set to 1 (the copy is written
/// upright) and, when the picture was turned a quarter, the pixel dimensions (0xA002, 0xA003)
/// swap. Everything else, maker notes included, is copied as it was.
public struct EXIFSegment: Hashable, Sendable {
    /// The segment, from its FF E1 marker to its end.
    public private(set) var bytes: [UInt8]
    /// The Orientation tag's value, when it has a valid one.
    public let orientation: ImageOrientation?
    /// Where in ``bytes`` the Orientation value sits (a SHORT), if anywhere.
    private let orientationAt: Int?
    /// Where the pixel dimensions' values sit (both, or none), and their size in bytes (a SHORT
    /// or a LONG).
    private let dimensionOffsets: [Int]
    private let dimensionSize: Int

    /// The EXIF segment of the JPEG in `jpeg`, or nil when it has none (or a damaged one).
    public init?(inJPEG jpeg: [UInt8]) {
        guard let segments = JPEGStructure.headerSegments(of: jpeg),
            let segment = segments.first(where: {
                $0.range.count >= 18 && Self.isEXIF(marker: $0.marker, range: $0.range, in: jpeg)
            })
        else { return nil }
        self.init(bytes: Array(jpeg[segment.range]))
    }

    /// The EXIF segment `bytes` (from its FF E1 marker to its end), or nil when it is damaged.
    init?(bytes: [UInt8]) {
        guard bytes.count >= 18 else { return nil }
        self.bytes = bytes
        let tiffStart = 10
        guard let tiff = TIFFStructure(Array(bytes[tiffStart...])), let first = tiff.u32(4) else { return nil }
        let ifd0 = tiff.entries(first)
        if let entry = ifd0[0x0112], entry.type == 3, entry.count == 1, let value = tiff.u16(entry.field) {
            orientation = ImageOrientation(rawValue: value)
            orientationAt = orientation == nil ? nil : tiffStart + entry.field
        } else {
            orientation = nil
            orientationAt = nil
        }
        let exif = ifd0[0x8769].flatMap { tiff.u32($0.field) }.map(tiff.entries) ?? [:]
        let dimensions = [0xA002, 0xA003].compactMap { tag -> (at: Int, size: Int)? in
            guard let entry = exif[tag], entry.count == 1, entry.type == 3 || entry.type == 4,
                entry.field + (entry.type == 3 ? 2 : 4) <= bytes.count - tiffStart
            else { return nil }
            return (tiffStart + entry.field, entry.type == 3 ? 2 : 4)
        }
        let paired = dimensions.count == 2 && dimensions[0].size == dimensions[1].size
        dimensionOffsets = paired ? dimensions.map(\.at) : []
        dimensionSize = paired ? dimensions[0].size : 0
        little = tiff.little
    }

    private let little: Bool

    /// Whether the header segment at `range` of `jpeg` (marker `marker`, its FF included in the
    /// range) is an EXIF block: APP1 starting `Exif\0\0`.
    static func isEXIF(marker: UInt8, range: Range<Int>, in jpeg: [UInt8]) -> Bool {
        marker == 0xE1 && JPEGStructure.hasIdentifier(Array("Exif\0\0".utf8), range: range, in: jpeg)
    }

    /// The segment for a copy written upright: Orientation 1, and the pixel dimensions swapped
    /// when `orientation` turned the picture a quarter.
    public func upright() -> [UInt8] {
        var result = bytes
        guard let orientationAt else { return result }
        if little {
            result[orientationAt] = 1
            result[orientationAt + 1] = 0
        } else {
            result[orientationAt] = 0
            result[orientationAt + 1] = 1
        }
        if orientation?.swapsAxes == true, dimensionOffsets.count == 2 {
            let size = dimensionSize
            let (a, b) = (dimensionOffsets[0], dimensionOffsets[1])
            let first = Array(result[a..<(a + size)])
            result.replaceSubrange(a..<(a + size), with: result[b..<(b + size)])
            result.replaceSubrange(b..<(b + size), with: first)
        }
        return result
    }
}
