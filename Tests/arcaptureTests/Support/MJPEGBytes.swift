/// JPEG byte surgery for comparing what a camera sent with what arcapture wrote, written apart
/// from arcapture's own JPEG code (so a shared mistake cannot hide): markers are walked as
/// ITU T.81 B.1 lays them out.
enum MJPEGBytes {
    /// The header segments before the scan of the JPEG at `start`, as (marker, byte range), and
    /// where the scan begins; nil when the bytes there are not a JPEG with a scan.
    static func header(_ bytes: [UInt8], at start: Int = 0) -> (
        segments: [(marker: UInt8, range: Range<Int>)], scan: Int
    )? {
        guard bytes.count > start + 4, bytes[start] == 0xFF, bytes[start + 1] == 0xD8 else { return nil }
        var position = start + 2
        var segments: [(marker: UInt8, range: Range<Int>)] = []
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            if marker == 0xDA { return (segments, position) }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            guard length >= 2, position + 2 + length <= bytes.count else { return nil }
            segments.append((marker, position..<position + 2 + length))
            position += 2 + length
        }
        return nil
    }

    /// The image without what follows its end-of-image marker (a driver's zero padding).
    static func image(in bytes: [UInt8]) -> [UInt8] {
        var end = bytes.count
        while end > 2 && bytes[end - 1] == 0 { end -= 1 }
        return Array(bytes[..<end])
    }

    /// Whether the header carries a DHT segment.
    static func hasHuffmanTables(_ bytes: [UInt8]) -> Bool {
        header(bytes)?.segments.contains { $0.marker == 0xC4 } ?? false
    }

    /// The bytes with every DHT segment of the header removed, to compare a frame sent without
    /// tables with the same frame written with the standard ones added.
    static func withoutHuffmanTables(_ bytes: [UInt8]) -> [UInt8] {
        guard let (segments, scan) = header(bytes) else { return bytes }
        var result: [UInt8] = [0xFF, 0xD8]
        for segment in segments where segment.marker != 0xC4 { result += bytes[segment.range] }
        return result + bytes[scan...]
    }

    /// The JPEG images of an MJPEG stream (concatenated JPEGs, zero padding between them
    /// skipped), each up to its end-of-image marker, found by walking each header and then its entropy-coded data, where a 0xFF byte is
    /// followed by 0x00 (stuffing) or a restart marker, and EOI ends the image.
    static func split(_ stream: [UInt8]) -> [[UInt8]] {
        var images: [[UInt8]] = []
        var start = 0
        while start < stream.count {
            guard let (_, scan) = header(stream, at: start) else { break }
            var position = scan + 2
            var end: Int?
            while position + 1 < stream.count {
                if stream[position] == 0xFF {
                    let next = stream[position + 1]
                    if next == 0xD9 {
                        end = position + 2
                        break
                    }
                    if next == 0xDA || next == 0xC4 || next == 0xDB || next == 0xDD {  // a later scan's header
                        let length =
                            position + 3 < stream.count ? Int(stream[position + 2]) << 8 | Int(stream[position + 3]) : 0
                        position += 2 + length
                        continue
                    }
                }
                position += 1
            }
            guard let end else { break }
            images.append(Array(stream[start..<end]))
            start = end
            // A buffer captured as it came can hold zeros after its image (v4l2loopback's first
            // buffers are the whole buffer long).
            while start < stream.count && stream[start] == 0 { start += 1 }
        }
        return images
    }
}
