import Foundation

/// Whether a file is a video container, told from its first bytes (and, for containers without a
/// signature of their own, its name): what the footage readers hand to FFmpeg, and what the track
/// readers refuse to read whole (a video can be gigabytes).
public enum MediaFileSignature {
    /// Whether `head` (a file's first bytes) is an ISO base media file: MP4, MOV, 3GP, whose
    /// first box is `ftyp` (or, in old QuickTime files, `moov`, `mdat`, `wide`, `free`).
    public static func isISOBaseMediaFile(head: [UInt8]) -> Bool {
        guard head.count >= 8 else { return false }
        let box = String(decoding: head[4..<8], as: UTF8.self)
        return ["ftyp", "moov", "mdat", "wide", "free", "skip"].contains(box)
    }

    /// Whether `head` (a file's first 64 bytes or so) starts a HEIF image file (an iPhone's
    /// HEIC, an AVIF): an ISO base media file whose major or compatible brands name a HEIF image
    /// (`heic`, `heix`, `mif1`, `avif`, …). Such a file is a photo, not a video.
    public static func isHEIFImage(head: [UInt8]) -> Bool {
        guard head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) else { return false }
        let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
        let end = min(head.count, max(size, 12))
        let brands = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]
        // The major brand, then (after the minor version) the compatible ones.
        return ([8] + Array(stride(from: 16, to: end - 3, by: 4))).contains { offset in
            offset + 4 <= end && brands.contains(String(decoding: head[offset..<(offset + 4)], as: UTF8.self))
        }
    }

    /// Whether `path` is a video file: by its first bytes (an MP4 or MOV box that is not a HEIF photo's, Matroska's EBML
    /// header, AVI's RIFF) or, for containers without a signature of their own (MPEG transport
    /// streams), by its name. Damaged ones included: reading them says what is wrong. Only regular
    /// files are looked into: a FIFO's first bytes would be taken from its reader (and the look
    /// would wait for a writer).
    public static func isVideoFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            let handle = FileHandle(forReadingAtPath: path)
        else { return false }
        let head = (try? handle.read(upToCount: 64)).map { Array($0) } ?? []
        try? handle.close()
        let suffixes = ["mp4", "mov", "m4v", "mkv", "webm", "avi", "3gp", "mts", "m2ts", "ts"]
        // A HEIC photo is an ISO base media file too, but a picture, not a video.
        if isHEIFImage(head: head) { return false }
        return isISOBaseMediaFile(head: head) || head.starts(with: [0x1A, 0x45, 0xDF, 0xA3])
            || (head.starts(with: Array("RIFF".utf8)) && head.count >= 12 && head[8..<12].elementsEqual("AVI ".utf8))
            || suffixes.contains((path as NSString).pathExtension.lowercased())
    }
}
