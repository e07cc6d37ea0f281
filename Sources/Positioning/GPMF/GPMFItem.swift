/// One item of GoPro's GPMF telemetry: a key-length-value record (the format gopro/gpmf-parser's
/// README documents). An 8-byte header (a four-character key, a type character, the size of one
/// sample in bytes, and how many samples, big-endian) is followed by the samples, padded to four
/// bytes. Type 0 is a container (`DEVC`, `STRM`) whose data is more items.
///
/// The reader is ours because no Debian package ships gpmf-parser and the format is small; it
/// checks every length against what is there, so a damaged payload is an error, never a crash
/// or a read past the end.
public struct GPMFItem: Sendable, Equatable {
    /// The four-character key (`DEVC`, `STRM`, `GPS5`, `SCAL`).
    public var key: String
    /// The type character (`l` for 32-bit signed, `U` for a UTC date, `c` for text), or 0 for a container.
    public var type: UInt8
    /// Bytes per sample.
    public var sampleSize: Int
    /// Samples.
    public var repeatCount: Int
    /// The samples' bytes (sampleSize × repeatCount, without the padding).
    public var data: [UInt8]
    /// A container's items; empty for data.
    public var children: [GPMFItem]
    /// Where the item starts in its payload (for messages).
    public var offset: Int

    /// Containers nest this deep at most (GoPro's go two deep: `DEVC` › `STRM`): more is damage.
    static let depthLimit = 8

    /// Reads the items of a payload (one MP4 sample of the telemetry track).
    ///
    /// - Throws: ``GPMFError`` when an item's length runs past what is there, a key is not four
    ///   printable characters, or containers nest too deep.
    public static func parse(_ bytes: [UInt8]) throws(GPMFError) -> [GPMFItem] {
        try parse(bytes[...], base: 0, depth: 0)
    }

    private static func parse(_ bytes: ArraySlice<UInt8>, base: Int, depth: Int) throws(GPMFError) -> [GPMFItem] {
        guard depth < depthLimit else {
            throw GPMFError(offset: base, problem: "containers nested more than \(depthLimit) deep")
        }
        var items: [GPMFItem] = []
        var position = bytes.startIndex
        while position < bytes.endIndex {
            let offset = base + position - bytes.startIndex
            // Payloads may end in zero padding: nothing but zeros left is the end.
            if bytes[position...].allSatisfy({ $0 == 0 }) { break }
            guard bytes.endIndex - position >= 8 else {
                throw GPMFError(
                    offset: offset,
                    problem: "\(bytes.endIndex - position) bytes left, too few for an item's 8-byte header")
            }
            let keyBytes = bytes[position..<position + 4]
            guard keyBytes.allSatisfy({ (0x20...0x7E).contains($0) }) else {
                throw GPMFError(
                    offset: offset,
                    problem: "not an item key: " + keyBytes.map { String(format: "%02x", $0) }.joined(separator: " "))
            }
            let key = String(decoding: keyBytes, as: UTF8.self)
            let type = bytes[position + 4]
            let sampleSize = Int(bytes[position + 5])
            let repeatCount = Int(bytes[position + 6]) << 8 | Int(bytes[position + 7])
            let length = sampleSize * repeatCount
            let dataStart = position + 8
            guard bytes.endIndex - dataStart >= length else {
                throw GPMFError(
                    offset: offset,
                    problem:
                        "\(key) says \(repeatCount) samples of \(sampleSize) bytes, but \(bytes.endIndex - dataStart) bytes follow"
                )
            }
            let data = bytes[dataStart..<dataStart + length]
            let children =
                type == 0 ? try parse(data, base: base + dataStart - bytes.startIndex, depth: depth + 1) : []
            items.append(
                GPMFItem(
                    key: key, type: type, sampleSize: sampleSize, repeatCount: repeatCount,
                    data: type == 0 ? [] : Array(data), children: children, offset: offset))
            // The next item starts on a 4-byte boundary; padding at the very end may be missing.
            position = min(bytes.endIndex, dataStart + (length + 3) / 4 * 4)
        }
        return items
    }

    /// Bytes per value of a numeric type, nil for others.
    static func valueSize(of type: UInt8) -> Int? {
        switch type {
        case UInt8(ascii: "b"), UInt8(ascii: "B"): 1
        case UInt8(ascii: "s"), UInt8(ascii: "S"): 2
        case UInt8(ascii: "l"), UInt8(ascii: "L"), UInt8(ascii: "f"), UInt8(ascii: "q"), UInt8(ascii: "F"): 4
        case UInt8(ascii: "j"), UInt8(ascii: "J"), UInt8(ascii: "d"), UInt8(ascii: "Q"): 8
        default: nil
        }
    }

    /// Values per sample (a GPS5 sample holds five).
    public var valuesPerSample: Int {
        guard let size = Self.valueSize(of: type), size > 0 else { return 1 }
        return sampleSize / size
    }

    /// Every value, sample after sample, as numbers (the type's own, not scaled).
    ///
    /// - Throws: ``GPMFError`` when the item is not numeric or its sample size is not a whole
    ///   number of values.
    public func numbers() throws(GPMFError) -> [Double] {
        guard let size = Self.valueSize(of: type), type != UInt8(ascii: "F") else {
            throw GPMFError(offset: offset, problem: "\(key) is of type '\(Self.typeName(type))', not a number")
        }
        guard sampleSize % size == 0 else {
            throw GPMFError(
                offset: offset, problem: "\(key)'s samples of \(sampleSize) bytes are not whole values of \(size)")
        }
        return Self.numbers(data[...], type: type)
    }

    /// Values of a numeric `type` read big-endian from `bytes`.
    static func numbers(_ bytes: ArraySlice<UInt8>, type: UInt8) -> [Double] {
        guard let size = valueSize(of: type) else { return [] }
        var values: [Double] = []
        values.reserveCapacity(bytes.count / size)
        var index = bytes.startIndex
        while index + size <= bytes.endIndex {
            var raw: UInt64 = 0
            for byte in bytes[index..<index + size] { raw = raw << 8 | UInt64(byte) }
            let value: Double =
                switch type {
                case UInt8(ascii: "b"): Double(Int8(truncatingIfNeeded: raw))
                case UInt8(ascii: "s"): Double(Int16(truncatingIfNeeded: raw))
                case UInt8(ascii: "l"): Double(Int32(truncatingIfNeeded: raw))
                case UInt8(ascii: "j"): Double(Int64(bitPattern: raw))
                case UInt8(ascii: "f"): Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw)))
                case UInt8(ascii: "d"): Double(bitPattern: raw)
                case UInt8(ascii: "q"): Double(Int32(truncatingIfNeeded: raw)) / 65536
                case UInt8(ascii: "Q"): Double(Int64(bitPattern: raw)) / 4_294_967_296
                default: Double(raw)
                }
            values.append(value)
            index += size
        }
        return values
    }

    /// The samples of a structure item (type `?`, whose fields the stream's TYPE item lays out,
    /// such as `lllllllSS` for GPS9), one array of values a sample, each divided by its SCAL
    /// (`scale`: one for all fields, or one each).
    ///
    /// - Throws: ``GPMFError`` when TYPE has fewer than `fields` numeric fields, its fields do not
    ///   add up to the sample size, or SCAL has the wrong count or a zero divisor.
    public func structuredSamples(layout: String, scale: [Double], fields: Int) throws(GPMFError) -> [[Double]] {
        let types = Array(layout.utf8)
        let sizes = types.compactMap(Self.valueSize(of:))
        guard types.count >= fields, sizes.count == types.count, sizes.reduce(0, +) == sampleSize else {
            throw GPMFError(
                offset: offset,
                problem:
                    "\(key) samples of \(sampleSize) bytes do not match TYPE '\(layout)' (\(fields) numeric fields or more)"
            )
        }
        let divisors = try divisors(scale, count: types.count)
        var samples: [[Double]] = []
        samples.reserveCapacity(repeatCount)
        for index in 0..<repeatCount {
            var position = index * sampleSize
            var values: [Double] = []
            values.reserveCapacity(types.count)
            for (field, type) in types.enumerated() {
                let bytes = data[position..<position + sizes[field]]
                values.append((Self.numbers(bytes, type: type).first ?? 0) / divisors[field])
                position += sizes[field]
            }
            samples.append(values)
        }
        return samples
    }

    /// SCAL's divisors for this item's `count` fields: one for all, or one each; none of them zero.
    ///
    /// - Throws: ``GPMFError`` at this item when SCAL has another count, or a zero.
    func divisors(_ scale: [Double], count: Int) throws(GPMFError) -> [Double] {
        let divisors = scale.count == 1 ? Array(repeating: scale[0], count: count) : scale
        guard divisors.count == count else {
            throw GPMFError(offset: offset, problem: "SCAL has \(scale.count) values for \(count) fields")
        }
        guard divisors.allSatisfy({ $0 != 0 && $0.isFinite }) else {
            throw GPMFError(offset: offset, problem: "SCAL has a zero divisor")
        }
        return divisors
    }

    /// The data as text (types `c` and `U`), without trailing NULs.
    public var text: String {
        String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// A type character as text, for messages.
    static func typeName(_ type: UInt8) -> String { type == 0 ? "container" : String(UnicodeScalar(type)) }
}
