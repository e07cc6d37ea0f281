extension JPEGStructure {
    /// The header segments of a JPEG, from after SOI up to (not including) the start of scan: each
    /// marker byte and its segment's range. Nil when the header is malformed.
    package static func headerSegments<Bytes: RandomAccessCollection<UInt8>>(of bytes: Bytes) -> [(
        marker: UInt8, range: Range<Int>
    )]? where Bytes.Index == Int {
        guard bytes.startIndex == 0, bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var segments: [(UInt8, Range<Int>)] = []
        var offset = 2
        while offset + 2 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {  // fill byte
                offset += 1
                continue
            }
            // Start of scan: the header is complete. End of image before any scan: a header alone
            // (metadata read from another format, a HEIC's, held as a JPEG header holds it).
            if marker == 0xDA || marker == 0xD9 { return segments }
            guard offset + 4 <= bytes.count else { return nil }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            segments.append((marker, offset..<(offset + 2 + length)))
            offset += 2 + length
        }
        return nil
    }
}

extension JPEGStructure {
    /// The image size a JPEG's frame header (SOF0–SOF3, SOF5–SOF7, SOF9–SOF11, SOF13–SOF15) gives,
    /// without decoding; nil when the header cannot be read.
    public static func imageSize(of bytes: [UInt8]) -> FrameSize? {
        guard let segments = headerSegments(of: bytes) else { return nil }
        let startsOfFrame: Set<UInt8> = [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF]
        guard let frame = segments.first(where: { startsOfFrame.contains($0.marker) }), frame.range.count >= 9
        else { return nil }
        let start = frame.range.lowerBound
        let height = UInt32(bytes[start + 5]) << 8 | UInt32(bytes[start + 6])
        let width = UInt32(bytes[start + 7]) << 8 | UInt32(bytes[start + 8])
        guard width > 0, height > 0 else { return nil }
        return FrameSize(width: width, height: height)
    }
}
