import Foundation

/// Reads the capture time from a JPEG's EXIF block (APP1 `Exif\0\0`, a TIFF structure).
///
/// Written here rather than taken from libexif: arcapture needs three ASCII tags (DateTimeOriginal,
/// SubSecTimeOriginal, OffsetTimeOriginal, with IFD0's DateTime as a fallback), and a bounds-checked
/// walk of two IFDs is about a hundred lines, where libexif would add a C dependency and a shim
/// for them. Every offset is checked against the block, so a damaged EXIF block gives nil, never a
/// crash.
public enum EXIFReader {
    /// The capture time of the JPEG in `bytes`, with whether the file said its time zone.
    ///
    /// EXIF times are the camera's local clock; only OffsetTimeOriginal (EXIF 2.31) says which zone.
    /// Without it the time is read as UTC and ``CaptureTime/hasTimeZone`` is false, so callers can
    /// say so.
    public static func captureTime(inJPEG bytes: some Collection<UInt8>) -> CaptureTime? {
        guard let tiff = exifBlock(Array(bytes.prefix(256 * 1024))) else { return nil }
        return captureTime(tiff: tiff)
    }

    /// A capture time read from EXIF.
    public struct CaptureTime: Hashable, Sendable {
        /// The instant (UTC when the file gave no offset).
        public var date: Date
        /// Whether the file gave the time zone (OffsetTimeOriginal).
        public var hasTimeZone: Bool
    }

    /// The TIFF structure inside the first APP1 `Exif` segment.
    static func exifBlock(_ jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            guard length >= 2, index + 2 + length <= jpeg.count else { return nil }
            if marker == 0xE1, length >= 8, Array(jpeg[(index + 4)..<(index + 10)]) == Array("Exif\0\0".utf8) {
                return Array(jpeg[(index + 10)..<(index + 2 + length)])
            }
            index += 2 + length
        }
        return nil
    }

    static func captureTime(tiff: [UInt8]) -> CaptureTime? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        /// The tags of the IFD at `offset`: tag → (type, count, value-or-offset field position).
        func entries(_ offset: Int) -> [Int: (type: Int, count: Int, field: Int)] {
            guard let count = u16(offset), count < 1000 else { return [:] }
            var result: [Int: (Int, Int, Int)] = [:]
            for entry in 0..<count {
                let at = offset + 2 + entry * 12
                guard let tag = u16(at), let type = u16(at + 2), let items = u32(at + 4) else { break }
                result[tag] = (type, items, at + 8)
            }
            return result
        }
        func ascii(_ entry: (type: Int, count: Int, field: Int)?) -> String? {
            guard let entry, entry.type == 2, entry.count > 0, entry.count < 256 else { return nil }
            let start = entry.count <= 4 ? entry.field : (u32(entry.field) ?? -1)
            guard start >= 0, start + entry.count <= tiff.count else { return nil }
            let text = tiff[start..<(start + entry.count)].prefix { $0 != 0 }
            return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        guard let first = u32(4) else { return nil }
        let ifd0 = entries(first)
        let exif = ifd0[0x8769].flatMap { u32($0.field) }.map(entries) ?? [:]
        guard let stamp = ascii(exif[0x9003]) ?? ascii(ifd0[0x0132]) else { return nil }
        // "YYYY:MM:DD HH:MM:SS" → ISO 8601.
        let parts = stamp.split(separator: " ")
        guard parts.count == 2 else { return nil }
        var iso = parts[0].replacingOccurrences(of: ":", with: "-") + "T" + parts[1]
        if let subSeconds = ascii(exif[0x9291]), !subSeconds.isEmpty, subSeconds.allSatisfy(\.isNumber) {
            iso += "." + subSeconds
        }
        let offset = ascii(exif[0x9011])
        if let offset { iso += offset }
        guard let date = UTCTime.parse(iso) else { return nil }
        return CaptureTime(date: date, hasTimeZone: offset != nil)
    }
}
