import ArcaptureCore
import Foundation

/// Turns a video's CAMM track (Google's Camera Motion Metadata, the open format of Street View
/// cameras, Insta360's and the Ricoh Theta X's exports) into a ``RecordedTrack``: the decoding half
/// of reading it (the Footage module's `EmbeddedTelemetry` takes the packets out of the container).
///
/// The format is Google's published specification (developers.google.com/streetview/publish/camm-spec):
/// each sample holds records of a 2-byte reserved field, a 2-byte type and a fixed-size payload,
/// little-endian; the specification is short and no Debian library reads it, so it is decoded
/// here. What is read, and what real files get wrong:
/// - Type 6 (a GPS fix: its time, fix type, latitude, longitude, altitude above the WGS84
///   ellipsoid, accuracies and velocity) gives fixes on the GPS clock; type 5 (latitude, longitude,
///   altitude, no time) fixes timed by the sample's place in the video alone.
/// - The specification gives type 6's time in seconds since the GPS epoch (1980-01-06), on GPS
///   time, which runs ahead of UTC by the leap seconds since (18 s from 2017): they are taken off.
///   Some cameras write seconds since 1970 instead (ExifTool's author has such files); when the
///   video's creation time is known, the reading that lands nearer to it is used, and the summary
///   says which.
/// - A fix of type 0 (none) or at 0°, 0° is left out and counted.
/// - Several records in one sample are read in turn; a record of a type the specification does not
///   define, or cut short, ends its sample with a warning naming its time in the video.
public struct CAMMTrackBuilder {
    /// Each record type's size, its 4-byte header included (types 0–7 of the specification).
    static let recordSizes: [UInt16: Int] = [0: 16, 1: 12, 2: 16, 3: 16, 4: 16, 5: 28, 6: 60, 7: 16]
    /// Seconds from the Unix epoch to the GPS epoch, 1980-01-06T00:00:00Z.
    static let gpsEpoch = 315_964_800.0

    private let path: String
    /// Type 6 fixes: their raw time, as written, and their time in the video.
    private var timed: [(written: Double, video: Double, fix: LocationFix)] = []
    /// Type 5 fixes, timed in the video only.
    private var untimed: [(video: Double, fix: LocationFix)] = []
    private var samples = 0
    private var withoutFix = 0
    private var warnings: [String] = []

    /// Starts a track for the video at `path` (named in warnings).
    public init(path: String) {
        self.path = path
    }

    /// Decodes one CAMM sample at `time` s in the video, spanning `duration` s.
    public mutating func add(time packetTime: Double?, duration: Double?, bytes: [UInt8]) {
        samples += 1
        let time = packetTime ?? 0
        var offset = 0
        var positions: [(latitude: Double, longitude: Double, altitude: Double)] = []
        var fixes: [(written: Double, fix: LocationFix)] = []
        while offset + 4 <= bytes.count {
            let type = UInt16(bytes[offset + 2]) | UInt16(bytes[offset + 3]) << 8
            guard let size = Self.recordSizes[type] else {
                warnings.append(
                    String(
                        format:
                            "%@: telemetry at %.2f s: byte %d: record type %d is not one of CAMM's (0–7); the rest of "
                            + "the sample skipped", path, time, offset, Int(type)))
                break
            }
            guard offset + size <= bytes.count else {
                warnings.append(
                    String(
                        format: "%@: telemetry at %.2f s: byte %d: a type %d record of %d bytes is cut short (%d left)",
                        path, time, offset, Int(type), size, bytes.count - offset))
                break
            }
            let record = Array(bytes[(offset + 4)..<(offset + size)])
            switch type {
            case 5:
                positions.append((Self.double(record, 0), Self.double(record, 8), Self.double(record, 16)))
            case 6:
                let written = Self.double(record, 0)
                let fixType = Self.int32(record, 8)
                let latitude = Self.double(record, 12)
                let longitude = Self.double(record, 20)
                guard fixType >= 2, latitude != 0 || longitude != 0,
                    let coordinate = GeodeticCoordinate(
                        latitude: latitude, longitude: longitude, altitude: Double(Self.float(record, 28)))
                else {
                    withoutFix += 1
                    break
                }
                let (east, north) = (Double(Self.float(record, 40)), Double(Self.float(record, 44)))
                let speed = (east * east + north * north).squareRoot()
                // A course is only the direction of travel when there is travel.
                let course =
                    speed > 0.5 ? (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360) : nil
                let accuracy = Double(Self.float(record, 32))
                fixes.append(
                    (
                        written,
                        LocationFix(
                            time: Date(timeIntervalSince1970: 0), coordinate: coordinate,
                            mode: fixType >= 3 ? .threeD : .twoD,
                            horizontalAccuracy: accuracy > 0 ? accuracy : nil,
                            verticalAccuracy: Self.float(record, 36) > 0 ? Double(Self.float(record, 36)) : nil,
                            course: course, speed: speed)
                    ))
            default:
                break  // motion, exposure, magnetic field: not positions
            }
            offset += size
        }
        // Records are spread over the sample's span in the video, as GPMF's samples are.
        let span = duration ?? 1
        for (number, entry) in fixes.enumerated() {
            timed.append((entry.written, time + span * Double(number) / Double(fixes.count), entry.fix))
        }
        for (number, position) in positions.enumerated() {
            guard position.latitude != 0 || position.longitude != 0,
                let coordinate = GeodeticCoordinate(
                    latitude: position.latitude, longitude: position.longitude, altitude: position.altitude)
            else {
                withoutFix += 1
                continue
            }
            untimed.append(
                (
                    time + span * Double(number) / Double(positions.count),
                    LocationFix(
                        time: Date(timeIntervalSince1970: 0), coordinate: coordinate, mode: .threeD)
                ))
        }
    }

    /// The track of every sample added and the GPS time of the video's start, or, when its
    /// positions have no time of their own, the track timed from the Unix epoch as the video's
    /// start (`isRelative`).
    ///
    /// - Parameter created: the video's creation time, when known: which epoch type 6's times
    ///   count from is decided by it.
    /// - Throws: `InputFileError` when no sample holds a fix.
    public func finish(created: Date?) throws(InputFileError) -> (
        track: RecordedTrack, videoStart: Date?, isRelative: Bool
    ) {
        var fixes: [LocationFix] = []
        var videoStart: Date?
        var summary: String
        if !timed.isEmpty {
            // GPS time (the specification's) less the leap seconds, unless a creation time says
            // the camera counted from 1970.
            let median = timed.map(\.written).sorted()[timed.count / 2]
            let gps = Self.gpsEpoch + median
            let unix = median
            let fromUnix =
                created.map { abs($0.timeIntervalSince1970 - unix) < abs($0.timeIntervalSince1970 - gps) }
                ?? false
            let leap = fromUnix ? 0 : Self.leapSeconds(at: Self.gpsEpoch + median)
            let base = fromUnix ? 0 : Self.gpsEpoch - leap
            for (written, _, fix) in timed {
                var fix = fix
                fix.time = Date(timeIntervalSince1970: base + written)
                if let last = fixes.last, fix.time <= last.time { continue }
                fixes.append(fix)
            }
            let offsets = timed.map { base + $0.written - $0.video }.sorted()
            videoStart = Date(timeIntervalSince1970: offsets[offsets.count / 2])
            summary =
                "\(fixes.count) fixes from \(samples) CAMM samples (type 6, "
                + (fromUnix
                    ? "times counted from 1970 as this camera writes them, nearer its creation time than the "
                        + "specification's GPS epoch)"
                    : "times on the GPS clock, \(Int(leap)) leap seconds taken off)")
        } else {
            for (video, fix) in untimed {
                var fix = fix
                fix.time = Date(timeIntervalSince1970: video)
                if let last = fixes.last, fix.time <= last.time { continue }
                fixes.append(fix)
            }
            summary =
                "\(fixes.count) fixes from \(samples) CAMM samples (type 5, timed by their place in the video only)"
        }
        if withoutFix > 0 { summary += "; \(withoutFix) records without a fix left out" }
        guard !fixes.isEmpty else {
            throw .malformed(
                file: path, location: nil,
                problem: withoutFix > 0
                    ? "its CAMM track's \(withoutFix) GPS records have no fix"
                    : "its CAMM track (\(samples) samples) holds no GPS record (type 5 or 6)"
                        + (warnings.first.map { " (\($0))" } ?? ""))
        }
        return (
            RecordedTrack(file: path, fixes: fixes, warnings: warnings, summary: summary), videoStart,
            timed.isEmpty
        )
    }

    /// GPS time less UTC at `unixSeconds` (GPS time, close enough): the leap seconds since 1980,
    /// as the IERS announced them; 18 since 2017-01-01.
    static func leapSeconds(at unixSeconds: Double) -> Double {
        // The starts of each count, in Unix seconds: 1999-01-01 (13) to 2017-01-01 (18).
        let steps: [(since: Double, count: Double)] = [
            (1_483_228_800, 18), (1_435_708_800, 17), (1_341_100_800, 16), (1_230_768_000, 15), (1_136_073_600, 14),
            (915_148_800, 13),
        ]
        return steps.first { unixSeconds >= $0.since }?.count ?? 13
    }

    private static func double(_ bytes: [UInt8], _ at: Int) -> Double {
        var bits: UInt64 = 0
        for index in (0..<8).reversed() { bits = bits << 8 | UInt64(bytes[at + index]) }
        return Double(bitPattern: bits)
    }

    private static func float(_ bytes: [UInt8], _ at: Int) -> Float {
        var bits: UInt32 = 0
        for index in (0..<4).reversed() { bits = bits << 8 | UInt32(bytes[at + index]) }
        return Float(bitPattern: bits)
    }

    private static func int32(_ bytes: [UInt8], _ at: Int) -> Int32 {
        var bits: UInt32 = 0
        for index in (0..<4).reversed() { bits = bits << 8 | UInt32(bytes[at + index]) }
        return Int32(bitPattern: bits)
    }
}
