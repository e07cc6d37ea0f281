import ArcaptureCore
import Foundation

/// Reads one entry of a zip archive (a KMZ), by its central directory: the end record found from
/// the file's end, the entries listed there, the entry's data after its local header, stored or
/// deflated (zlib, through ``GzipFile``). Written here because Debian's minizip and libzip would
/// be a second C library for the one entry of one format; ZIP64, encryption and split archives are
/// refused by name.
enum ZipArchive {
    /// The first entry whose name ends with `suffix` (any case), preferring `doc.kml` as KMZ
    /// readers do, inflated.
    ///
    /// - Throws: `InputFileError.malformed` naming `file` when it is not a zip it can read or has no
    ///   such entry.
    static func firstEntry(endingWith suffix: String, in data: Data, file: String) throws(InputFileError) -> Data {
        let bytes = [UInt8](data)
        func fail(_ problem: String) -> InputFileError { .malformed(file: file, location: nil, problem: problem) }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end of central directory record: 22 bytes and a comment of up to 65,535.
        var end = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while end >= lowest,
            !(bytes[end] == 0x50 && bytes[end + 1] == 0x4B && bytes[end + 2] == 5 && bytes[end + 3] == 6)
        {
            end -= 1
        }
        guard end >= lowest, end >= 0 else { throw fail("a zip archive without its central directory (cut short?)") }
        let count = u16(end + 10)
        var entry = u32(end + 16)
        guard count != 0xFFFF, entry != 0xFFFF_FFFF else {
            throw fail("a ZIP64 archive, which arcapture does not read")
        }
        var found: (name: String, method: Int, size: Int, original: Int, local: Int)?
        for _ in 0..<count {
            guard entry + 46 <= bytes.count, u32(entry) == 0x0201_4B50 else {
                throw fail("a damaged zip central directory at byte \(entry)")
            }
            let nameLength = u16(entry + 28)
            guard entry + 46 + nameLength <= bytes.count else { throw fail("a damaged zip central directory") }
            let name = String(decoding: bytes[(entry + 46)..<(entry + 46 + nameLength)], as: UTF8.self)
            if name.lowercased().hasSuffix(suffix), found == nil || name.lowercased() == "doc" + suffix {
                guard u16(entry + 8) & 1 == 0 else { throw fail("\(name) in the archive is encrypted") }
                found = (name, u16(entry + 10), u32(entry + 20), u32(entry + 24), u32(entry + 42))
            }
            entry += 46 + nameLength + u16(entry + 30) + u16(entry + 32)
        }
        guard let found else { throw fail("a zip archive with no \(suffix) file in it") }
        let local = found.local
        guard local + 30 <= bytes.count, u32(local) == 0x0403_4B50 else {
            throw fail("\(found.name): its local header at byte \(local) is damaged")
        }
        let start = local + 30 + u16(local + 26) + u16(local + 28)
        guard start + found.size <= bytes.count else { throw fail("\(found.name) is cut short in the archive") }
        let content = Data(bytes[start..<(start + found.size)])
        switch found.method {
        case 0: return content
        case 8:
            let inflated = try GzipFile.inflate(content, file: file, raw: true, what: "\(found.name) in the archive")
            guard inflated.count == found.original else {
                throw fail(
                    "\(found.name) inflates to \(inflated.count) bytes, not the \(found.original) its entry says")
            }
            return inflated
        default: throw fail("\(found.name) is compressed with method \(found.method); zip readers use 0 or 8")
        }
    }
}
