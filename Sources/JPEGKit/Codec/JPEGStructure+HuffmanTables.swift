import ArcaptureCore

extension JPEGStructure {
    /// `bytes` with the standard Huffman tables (JPEG Annex K) inserted when it has none.
    ///
    /// USB webcams send MJPEG frames without a DHT segment: MJPEG decoders assume the standard
    /// tables, but a still saved as such is not a valid JPEG file for every reader. Inserting the
    /// tables makes it one without re-encoding. A frame that has tables, or whose header cannot be
    /// read, is returned unchanged.
    public static func insertingStandardHuffmanTables(into bytes: [UInt8]) -> [UInt8] {
        guard let segments = headerSegments(of: bytes), !segments.contains(where: { $0.marker == 0xC4 }),
            let tables = standardHuffmanTables
        else { return bytes }
        let scanStart = segments.last?.range.upperBound ?? 2
        return Array(bytes[..<scanStart]) + tables + Array(bytes[scanStart...])
    }

    /// The DHT segments libjpeg-turbo writes with its default (Annex K) tables, taken from a tiny
    /// colour image encoded once, so the table bytes come from the reference library rather than
    /// from a hand-typed copy.
    package static let standardHuffmanTables: [UInt8]? = {
        guard let encoder = try? JPEGEncoder(),
            let sample = try? encoder.encode(YCbCrImage(width: 16, height: 8, subsampling: .s422), quality: 90),
            let segments = headerSegments(of: sample)
        else { return nil }
        let tables = segments.filter { $0.marker == 0xC4 }.flatMap { sample[$0.range] }
        return tables.isEmpty ? nil : tables
    }()
}
