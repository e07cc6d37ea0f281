import ArcaptureCore

extension JPEGStructure {
    /// Whether the header segment at `range` of `jpeg` (its marker and length included) starts
    /// with `identifier` (`Exif\0\0`, `ICC_PROFILE\0`, XMP's namespace…): how application
    /// segments say what they hold.
    static func hasIdentifier(_ identifier: [UInt8], range: Range<Int>, in jpeg: [UInt8]) -> Bool {
        let start = range.lowerBound + 4
        return start + identifier.count <= range.upperBound && range.upperBound <= jpeg.count
            && jpeg[start..<(start + identifier.count)].elementsEqual(identifier)
    }

    /// `jpeg` with `segments` (whole header segments, markers included, such as
    /// ``PhotoMetadata/upright()`` gives) placed after SOI and any JFIF APP0, which must come first;
    /// the segments of those kinds already there (EXIF, XMP, ICC profile…) are replaced, so that
    /// inserting twice does not double them.
    public static func inserting(metadata segments: [[UInt8]], into jpeg: [UInt8]) -> [UInt8] {
        guard let found = headerSegments(of: jpeg) else { return jpeg }
        var result = Array(jpeg[..<2])
        var placed = false
        for (marker, range) in found {
            let isJFIF = marker == 0xE0 && JPEGStructure.hasIdentifier(Array("JFIF\0".utf8), range: range, in: jpeg)
            if !placed && !isJFIF {
                for segment in segments { result += segment }
                placed = true
            }
            // What a photo's metadata would keep is what is being replaced; the rest (JFIF,
            // tables, the frame header) describes the encoding and stays.
            if !PhotoMetadata.keeps(marker: marker, range: range, in: jpeg) { result += jpeg[range] }
        }
        if !placed { for segment in segments { result += segment } }
        let headerEnd = found.last?.range.upperBound ?? 2
        return result + jpeg[headerEnd...]
    }
}

extension JPEGStructure {
    /// `jpeg` without its Multi-Picture Format index (APP2 `MPF`), as is when it has none. The
    /// index locates a phone's second pictures (depth map, preview) after the first one's end by
    /// offset; a spliced copy changes the first picture's length and ends with it, so an index
    /// kept would point at nothing.
    public static func removingMultiPictureIndex(from jpeg: [UInt8]) -> [UInt8] {
        guard let found = headerSegments(of: jpeg) else { return jpeg }
        let indices = found.filter {
            $0.marker == 0xE2 && JPEGStructure.hasIdentifier(Array("MPF\0".utf8), range: $0.range, in: jpeg)
        }
        guard !indices.isEmpty else { return jpeg }
        var result = jpeg
        for index in indices.reversed() { result.removeSubrange(index.range) }
        return result
    }
}
