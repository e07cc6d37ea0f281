import Foundation

/// The camera's own boxes in an MP4 or MOV file's user data (`moov/udta`): GoPro writes its
/// firmware (`FIRM`), lens and camera serials (`LENS`, `CAME`), settings (`SETT`), media ids
/// (`MUID`, `GUMI`), highlights (`HMMT`) and global telemetry (`GPMF`) there; other makers their
/// model and make. FFmpeg's demuxer reads some of them as metadata (the firmware) and its muxer
/// writes none of them back, so an annotated copy would lose what the camera said about itself.
/// They are read from the input and added to the copy's `udta` after the muxer has finished.
///
/// Hand-written (a box walk of ~100 lines): FFmpeg has no API to carry raw user-data boxes, and
/// no Debian library edits an MP4's boxes in place. Only top-level boxes and `moov`'s children are
/// read; a box's size is checked against its parent before it is trusted.
struct MovieUserData: Sendable, Equatable {
    /// The input's `udta` children, whole (size, type and payload), in the file's order.
    let boxes: [[UInt8]]

    /// The type of each box (`FIRM`), for messages.
    var types: [String] { boxes.map { Self.typeName($0[4..<8]) } }

    /// The user data of the MP4 or MOV file at `path`; nil when it is no such file, has no `udta`
    /// or its boxes cannot be read.
    init?(readingFileAt path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let moov = Self.topLevelBox("moov", in: handle),
            let bytes = Self.read(handle, at: moov.offset, count: moov.size),
            let udta = Self.children(of: bytes, from: moov.header).first(where: { $0.type == "udta" })
        else { return nil }
        // Padding (`free`, `skip`) is the camera's room to rewrite in place, not data.
        let boxes = Self.children(of: bytes, from: udta.range.lowerBound + udta.header, to: udta.range.upperBound)
            .filter { $0.type != "free" && $0.type != "skip" }.map { Array(bytes[$0.range]) }
        guard !boxes.isEmpty else { return nil }
        self.boxes = boxes
    }

    /// Adds the boxes to the `udta` of the MP4 or MOV file at `path` (made if it has none), leaving
    /// out the types already there (the muxer's own metadata wins). The file must end with its
    /// `moov`, as FFmpeg's muxer writes it without `faststart`: growing it then moves no sample.
    ///
    /// - Returns: the types added; nil when the file's layout does not allow it (no `moov` at its
    ///   end), in which case it is left as it was.
    /// - Throws: the file system's error when reading or writing fails.
    func add(toFileAt path: String) throws -> [String]? {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let end = try handle.seekToEnd()
        guard let moov = Self.topLevelBox("moov", in: handle), UInt64(moov.offset + moov.size) == end,
            moov.header == 8, var bytes = Self.read(handle, at: moov.offset, count: moov.size)
        else { return nil }
        let children = Self.children(of: bytes, from: 8)
        let udta = children.first { $0.type == "udta" }
        let present = Set(
            udta.map { Self.children(of: bytes, from: $0.range.lowerBound + $0.header, to: $0.range.upperBound) }?
                .map(\.type) ?? [])
        let added = boxes.filter { !present.contains(Self.typeName($0[4..<8])) }
        guard !added.isEmpty else { return [] }
        let payload = added.flatMap { $0 }
        if let udta, udta.header == 8 {
            bytes.insert(contentsOf: payload, at: udta.range.upperBound)
            Self.setSize(udta.range.count + payload.count, in: &bytes, at: udta.range.lowerBound)
        } else if udta == nil {
            bytes += Self.header(size: 8 + payload.count, type: "udta") + payload
        } else {
            return nil  // a udta with a 64-bit size: not written by FFmpeg
        }
        guard bytes.count <= Int(UInt32.max) else { return nil }
        Self.setSize(bytes.count, in: &bytes, at: 0)
        try handle.seek(toOffset: UInt64(moov.offset))
        try handle.write(contentsOf: bytes)
        return added.map { Self.typeName($0[4..<8]) }
    }

    /// A box found: its type, its range in the bytes searched, and its header's length (8, or 16
    /// with a 64-bit size).
    private struct Box {
        var type: String
        var range: Range<Int>
        var header: Int
    }

    /// The top-level box `type` of the file behind `handle`: its offset, size and header length.
    private static func topLevelBox(_ type: String, in handle: FileHandle) -> (offset: Int, size: Int, header: Int)? {
        guard let end = try? handle.seekToEnd() else { return nil }
        var offset: UInt64 = 0
        // A file of a few boxes (ftyp, mdat, moov, free…); a bound so damage cannot loop long.
        for _ in 0..<1000 where offset + 8 <= end {
            guard let head = read(handle, at: Int(offset), count: 16, exact: false), head.count >= 8 else { return nil }
            var size = UInt64(bigEndian(head, 0, 4))
            var header: UInt64 = 8
            if size == 1 {
                guard head.count == 16 else { return nil }
                size = bigEndian(head, 8, 8)
                header = 16
            } else if size == 0 {
                size = end - offset
            }
            // Compared without adding: a damaged 64-bit size near 2^64 would overflow the sum.
            guard size >= header, size <= end - offset else { return nil }
            if typeName(head[4..<8]) == type {
                // moov is read whole: one of more than 1 GiB is not a file FFmpeg would write.
                guard size <= 1 << 30 else { return nil }
                return (Int(offset), Int(size), Int(header))
            }
            offset += size
        }
        return nil
    }

    /// The boxes that fill `bytes[start..<end]` (to the end when `end` is nil); the walk stops at
    /// the first one whose size does not fit.
    private static func children(of bytes: [UInt8], from start: Int, to end: Int? = nil) -> [Box] {
        let end = end ?? bytes.count
        var boxes: [Box] = []
        var offset = start
        while offset + 8 <= end {
            var size = Int(bigEndian(bytes, offset, 4))
            var header = 8
            if size == 1 {
                guard offset + 16 <= end else { break }
                let large = bigEndian(bytes, offset + 8, 8)
                guard large <= UInt64(end - offset) else { break }
                size = Int(large)
                header = 16
            } else if size == 0 {
                size = end - offset
            }
            guard size >= header, offset + size <= end else { break }
            let type = typeName(bytes[(offset + 4)..<(offset + 8)])
            boxes.append(Box(type: type, range: offset..<(offset + size), header: header))
            offset += size
        }
        return boxes
    }

    private static func read(_ handle: FileHandle, at offset: Int, count: Int, exact: Bool = true) -> [UInt8]? {
        guard (try? handle.seek(toOffset: UInt64(offset))) != nil,
            let data = try? handle.read(upToCount: count), !exact || data.count == count
        else { return nil }
        return [UInt8](data)
    }

    /// A box type as QuickTime's documents write it: four bytes of Mac Roman, whose 0xA9 is ©
    /// (`©xyz`, the place) as in Latin-1; the other bytes of those types are ASCII.
    private static func typeName(_ bytes: ArraySlice<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    private static func header(size: Int, type: String) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 4) + Array(type.utf8)
        setSize(size, in: &bytes, at: 0)
        return bytes
    }

    private static func setSize(_ size: Int, in bytes: inout [UInt8], at offset: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: size >> (24 - 8 * index)) }
    }
}
