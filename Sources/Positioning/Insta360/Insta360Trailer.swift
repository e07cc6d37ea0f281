import ArcaptureCore
import Foundation

/// The metadata Insta360 cameras append to their videos (`.insv`, `.mp4`: the ONE R, ONE X2,
/// X3, X4, GO): records after the last box of the file, ended by a 72-byte footer whose last 32
/// bytes are the signature `8db42d694ccc418790edff439fe026bf`. The decoding half of reading its
/// GPS (the Footage module's `EmbeddedTelemetry` reads the file's tail).
///
/// The layout is no published specification; it is what ExifTool (`QuickTimeStream.pl`), insvtools
/// and telemetry-parser read alike, and it is small: decoded here, as no Debian library reads it.
/// - The footer: 32 bytes, the trailer's size (footer included) and its version (3), little-endian
///   32-bit, then the signature.
/// - Records, read from the end backwards: each followed by 6 bytes, its version, its type and its
///   size (32-bit). Type 7 holds GPS; type 0, an index, gives every record's type, size and place
///   (cameras that write it may write records without the 6 bytes).
/// - A GPS record is 53 bytes: the UTC time (64-bit seconds since 1970, then 16-bit
///   milliseconds), `A` (a fix) or `V` (none), the latitude (a double) and `N` or `S`, the
///   longitude and `E` or `W`, the speed (m/s), the course (degrees from true north) and the
///   altitude (metres, taken as above sea level, as ExifTool reads it).
///
/// The records are the receiver's fixes on its clock, not tied to the video's frames: the
/// video's start comes from elsewhere (`--start`, else the container's creation time). A record
/// without a fix (`V`, or 0°, 0°: a camera that never had one writes those) is left out and
/// counted; records out of time order are left out.
public enum Insta360Trailer {
    /// The last 32 bytes of a file that has a trailer.
    public static let signature = Array("8db42d694ccc418790edff439fe026bf".utf8)
    /// The footer's size: what to read from a file's end first.
    public static let footerSize = 72
    /// A GPS record's size.
    static let gpsRecordSize = 53

    /// The trailer's size, footer included, as the footer (`footer`: a file's last
    /// ``footerSize`` bytes) gives it; nil when `footer` is not a trailer's.
    public static func size(footer: [UInt8]) -> Int? {
        guard footer.count == footerSize, Array(footer[40...]) == signature else { return nil }
        return Int(uint32(footer, 32))
    }

    /// Reads the GPS records of `trailer` (a file's last ``size(footer:)`` bytes) of the video at
    /// `path` (named in messages).
    ///
    /// - Throws: `InputFileError` when a record's size runs past the trailer, or no GPS record
    ///   holds a fix.
    public static func track(trailer: [UInt8], path: String) throws(InputFileError) -> RecordedTrack {
        guard trailer.count >= footerSize else {
            throw .malformed(file: path, location: nil, problem: "its Insta360 trailer is cut short")
        }
        // The records' places: from the index when there is one, else walking back from the footer.
        var gpsRanges: [Range<Int>] = []
        var end = trailer.count - footerSize
        walk: while end >= 6 {
            let type = trailer[end - 5]
            let size = Int(uint32(trailer, end - 4))
            guard size <= end - 6 else {
                throw .malformed(
                    file: path, location: "Insta360 trailer byte \(end - 6)",
                    problem: "a record of type \(type) claims \(size) bytes, more than the \(end - 6) before it")
            }
            let start = end - 6 - size
            switch type {
            case 0:
                // The index: 10 bytes a record (type, version, size, place from the trailer's start).
                var entry = start
                while entry + 10 <= start + size {
                    let place = Int(uint32(trailer, entry + 6))
                    let length = Int(uint32(trailer, entry + 2))
                    if trailer[entry] == 7, length > 0, place >= 0, place + length <= start {
                        gpsRanges.append(place..<place + length)
                    }
                    entry += 10
                }
                break walk
            case 7:
                gpsRanges.append(start..<end - 6)
            default:
                break
            }
            end = start
        }
        var fixes: [LocationFix] = []
        var records = 0
        var withoutFix = 0
        var outOfOrder = 0
        for range in gpsRanges.reversed() {
            var offset = range.lowerBound
            while offset + gpsRecordSize <= range.upperBound {
                records += 1
                let record = Array(trailer[offset..<offset + gpsRecordSize])
                offset += gpsRecordSize
                let seconds = Double(uint64(record, 0)) + Double(uint16(record, 8)) / 1000
                var latitude = double(record, 11)
                var longitude = double(record, 20)
                if record[19] == UInt8(ascii: "S") { latitude = -abs(latitude) }
                if record[28] == UInt8(ascii: "W") { longitude = -abs(longitude) }
                guard record[10] == UInt8(ascii: "A"), latitude != 0 || longitude != 0,
                    let coordinate = GeodeticCoordinate(latitude: latitude, longitude: longitude)
                else {
                    withoutFix += 1
                    continue
                }
                let time = Date(timeIntervalSince1970: seconds)
                if let last = fixes.last, time <= last.time {
                    outOfOrder += 1
                    continue
                }
                let speed = double(record, 29)
                let course = double(record, 37)
                let altitude = double(record, 45)
                fixes.append(
                    LocationFix(
                        time: time, coordinate: coordinate, mode: altitude.isFinite ? .threeD : .twoD,
                        altitudeMeanSeaLevel: altitude.isFinite ? altitude : nil,
                        course: course.isFinite && speed > 0.5 ? CompassDegrees.wrapped(course) : nil,
                        speed: speed.isFinite && speed >= 0 ? speed : nil))
            }
        }
        guard !fixes.isEmpty else {
            throw .malformed(
                file: path, location: nil,
                problem: records > 0
                    ? "its Insta360 trailer's \(records) GPS records have no fix (the receiver had none, or the "
                        + "positions were removed)"
                    : "its Insta360 trailer holds no GPS record")
        }
        var summary =
            "\(fixes.count) fixes from its Insta360 trailer's \(records) GPS records (UTC, not tied to the frames)"
        if withoutFix > 0 { summary += "; \(withoutFix) without a fix left out" }
        if outOfOrder > 0 { summary += "; \(outOfOrder) not after the one before left out" }
        return RecordedTrack(file: path, fixes: fixes, summary: summary)
    }

    private static func uint16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * $1) }
    }

    private static func uint64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * $1) }
    }

    private static func double(_ bytes: [UInt8], _ at: Int) -> Double {
        Double(bitPattern: uint64(bytes, at))
    }
}
