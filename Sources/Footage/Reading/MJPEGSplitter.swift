import Foundation

/// Finds the JPEG images in an MJPEG stream (concatenated JPEGs, what `ffmpeg -f mjpeg` and
/// `arcapture capture --output -` write) by walking each image's marker segments, so an EXIF
/// thumbnail (a whole JPEG inside APP1) or a stray FF D9 in a header never splits a frame.
///
/// Segments with a length are skipped by it; after SOS the entropy-coded data is scanned for the
/// next marker (FF followed by anything but 00 and the restart markers D0–D7). Bytes between images
/// are skipped and counted. An image that breaks off (a camera or a copy cut it short, and the next
/// image's SOI follows) is returned as damaged, up to where the next one starts, so that one bad
/// frame costs only itself and the frames after it keep their places (and so their times).
public struct MJPEGSplitter: Sendable {
    /// One image found: its byte range, or the place a truncated one started.
    public enum Piece: Hashable, Sendable {
        /// A complete image, SOI to EOI inclusive.
        case image(Range<Int>)
        /// An image whose structure breaks off before its EOI, from its SOI to the next image's
        /// SOI: a frame slot with damaged contents.
        case damaged(Range<Int>)
        /// An image that starts at this offset but does not end before the data does.
        case truncated(start: Int)
    }

    /// Bytes that were not part of any image (noise between frames).
    public private(set) var skippedBytes = 0

    /// Creates a splitter.
    public init() {}

    /// The next image at or after `offset` in `bytes`, or nil when no SOI follows.
    public mutating func next(in bytes: UnsafeRawBufferPointer, from offset: Int) -> Piece? {
        var start = offset
        while start + 1 < bytes.count, !(bytes[start] == 0xFF && bytes[start + 1] == 0xD8) { start += 1 }
        guard start + 1 < bytes.count else {
            skippedBytes += max(0, bytes.count - offset)
            return nil
        }
        skippedBytes += start - offset
        var index = start + 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return resynchronised(bytes, after: start) }
            let marker = bytes[index + 1]
            if marker == 0xFF {  // fill byte
                index += 1
                continue
            }
            if marker == 0xD9 { return .image(start..<(index + 2)) }
            if marker == 0xD8 { return .damaged(start..<index) }  // the next image began: this one was cut
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                index += 2
                continue
            }
            guard index + 3 < bytes.count else { return .truncated(start: start) }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            guard length >= 2 else { return resynchronised(bytes, after: start) }
            index += 2 + length
            if marker == 0xDA {
                // Entropy-coded data: up to the next real marker. memchr finds each FF (it is most
                // of the reader's time otherwise: the data is all but the whole frame).
                guard let base = bytes.baseAddress else { return .truncated(start: start) }
                while index + 1 < bytes.count {
                    guard let found = memchr(base + index, 0xFF, bytes.count - index - 1) else {
                        index = bytes.count - 1
                        break
                    }
                    index = base.distance(to: UnsafeRawPointer(found))
                    let next = bytes[index + 1]
                    if next != 0x00, !(0xD0...0xD7).contains(next) { break }
                    index += 1
                }
            }
        }
        return .truncated(start: start)
    }

    /// The image at `start` lost its structure (a byte where a marker belongs): it is damaged up to
    /// the next SOI, or truncated when none follows in the data so far.
    private func resynchronised(_ bytes: UnsafeRawBufferPointer, after start: Int) -> Piece {
        var next = start + 2
        while next + 1 < bytes.count, !(bytes[next] == 0xFF && bytes[next + 1] == 0xD8) { next += 1 }
        return next + 1 < bytes.count ? .damaged(start..<next) : .truncated(start: start)
    }
}
