import Foundation

/// Bounds-checked reading of a TIFF structure (an EXIF block): every offset is checked against the
/// bytes, so a damaged block reads as missing values, never a crash.
struct TIFFStructure {
    /// One IFD entry: its type, count and where its value (or the offset to it) sits.
    typealias Entry = (type: Int, count: Int, field: Int)

    let bytes: [UInt8]
    let little: Bool

    /// Nil unless `bytes` start with a TIFF byte-order mark.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 8 else { return nil }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        self.bytes = bytes
    }

    func u16(_ at: Int) -> Int? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }

    func u32(_ at: Int) -> Int? {
        guard let a = u16(at), let b = u16(at + 2) else { return nil }
        return little ? a | b << 16 : a << 16 | b
    }

    /// The tags of the IFD at `offset`.
    func entries(_ offset: Int) -> [Int: Entry] {
        guard let count = u16(offset), count < 1000 else { return [:] }
        var result: [Int: Entry] = [:]
        for entry in 0..<count {
            let at = offset + 2 + entry * 12
            guard let tag = u16(at), let type = u16(at + 2), let items = u32(at + 4) else { break }
            result[tag] = (type, items, at + 8)
        }
        return result
    }

    /// An ASCII value (type 2), trimmed.
    func ascii(_ entry: Entry?) -> String? {
        guard let entry, entry.type == 2, entry.count > 0, entry.count < 256 else { return nil }
        let start = entry.count <= 4 ? entry.field : (u32(entry.field) ?? -1)
        guard start >= 0, start + entry.count <= bytes.count else { return nil }
        let text = bytes[start..<(start + entry.count)].prefix { $0 != 0 }
        return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// A BYTE value (type 1).
    func byte(_ entry: Entry?) -> Int? {
        guard let entry, entry.type == 1, entry.count >= 1, entry.field < bytes.count else { return nil }
        return Int(bytes[entry.field])
    }

    /// A SHORT (type 3) or LONG (type 4) value, the first of its count.
    func integer(_ entry: Entry?) -> Int? {
        guard let entry, entry.count >= 1 else { return nil }
        switch entry.type {
        case 3: return u16(entry.field)
        case 4: return u32(entry.field)
        default: return nil
        }
    }

    /// RATIONAL values (type 5, unsigned) or SRATIONAL ones (type 10, signed: some phones write GPS
    /// coordinates so); nil if any is x/0.
    func rationals(_ entry: Entry?) -> [Double]? {
        guard let entry, entry.type == 5 || entry.type == 10, (1...16).contains(entry.count),
            let start = u32(entry.field)
        else { return nil }
        var values: [Double] = []
        for item in 0..<entry.count {
            guard var numerator = u32(start + item * 8), var denominator = u32(start + item * 8 + 4) else {
                return nil
            }
            if entry.type == 10 {
                numerator = Int(Int32(truncatingIfNeeded: numerator))
                denominator = Int(Int32(truncatingIfNeeded: denominator))
            }
            guard denominator != 0 else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }
}
