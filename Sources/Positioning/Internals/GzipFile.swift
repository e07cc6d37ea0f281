import ArcaptureCore
import CZlib
import Foundation

/// gzip-compressed track files (`.gpx.gz`, `.nmea.gz`: what Strava exports and loggers rotate),
/// told by their first two bytes and inflated through zlib, members one after another as `gzip -c
/// a b` writes them.
enum GzipFile {
    /// The most a compressed track may inflate to: ten hours of 10 Hz NMEA is about 150 MB, and a
    /// file that inflates past this is more likely a decompression bomb than a track.
    static let maximumSize = 1 << 30

    /// Whether `data` starts with gzip's magic bytes.
    static func isCompressed(_ data: Data) -> Bool { data.starts(with: [0x1F, 0x8B]) }

    /// `data` inflated.
    ///
    /// - Throws: `InputFileError.malformed` naming `file` and zlib's reason when the stream is
    ///   damaged or cut short, or when it inflates past ``maximumSize``.
    ///
    /// - Parameter raw: a bare deflate stream with no header (a zip entry's), named `what` in messages.
    static func inflate(
        _ data: Data, file: String, maximumSize: Int = maximumSize, raw: Bool = false, what: String = "a gzip file"
    ) throws(InputFileError) -> Data {
        var stream = z_stream()
        // 15 + 32: a window of 32 kB, and a gzip or zlib header detected from the stream; -15: none.
        let windowBits: Int32 = raw ? -15 : 15 + 32
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .malformed(file: file, location: nil, problem: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var input = [UInt8](data)
        var problem: String?
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while problem == nil {
                let status = chunk.withUnsafeMutableBufferPointer { target -> Int32 in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                if output.count > maximumSize {
                    problem = "inflates past \(maximumSize >> 20) MB: not a track"
                } else if status == Z_STREAM_END {
                    // Another member may follow (`cat a.gz b.gz`); trailing zeros are padding.
                    guard stream.avail_in > 0, stream.next_in.pointee != 0 else { return }
                    guard inflateReset(&stream) == Z_OK else {
                        problem = "zlib could not read the member after byte \(Int(stream.total_in))"
                        return
                    }
                } else if status == Z_BUF_ERROR, stream.avail_in == 0 {
                    problem = "cut short: the compressed stream ends before its end mark"
                } else if status != Z_OK {
                    let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                    problem = "damaged compressed data (zlib: \(reason))"
                }
            }
        }
        if let problem { throw .malformed(file: file, location: nil, problem: "\(what): " + problem) }
        return output
    }
}
