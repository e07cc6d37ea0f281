import Foundation
import Testing

@testable import ArcaptureCore
@testable import Positioning

/// GoPro's GPS altitude datum: the ellipsoid (GPS5 from the HERO5 on, said in gpmf-parser's README),
/// unless the stream's GPSA says `MSLV` (mean sea level, the HERO13's GPS9): then the altitude is
/// kept as above sea level, for the geoid to put on the ellipsoid.
@Suite("GPMF GPS altitude datum")
struct GPMFAltitudeDatumTests {
    /// A GPMF item: key, type, sample size, count, the data padded to four bytes (gpmf-parser's
    /// README: KLV, big-endian).
    static func item(_ key: String, _ type: Character, size: Int, count: Int, _ data: [UInt8]) -> [UInt8] {
        Array(key.utf8) + [type.asciiValue ?? 0, UInt8(size), UInt8(count >> 8), UInt8(count & 0xFF)] + data
            + [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
    }

    static func int32(_ value: Int32) -> [UInt8] {
        (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// One payload: a GPS stream with a fix, one GPS5 sample at 60.1699 N 24.9384 E, 25.0 m, and
    /// GPSA `datum` when given.
    static func payload(datum: String?) -> [UInt8] {
        var stream =
            item("GPSU", "U", size: 16, count: 1, Array("191118234516.000".utf8))
            + item("GPSF", "L", size: 4, count: 1, int32(3))
        if let datum { stream += item("GPSA", "F", size: 4, count: 1, Array(datum.utf8)) }
        stream +=
            item("SCAL", "l", size: 4, count: 5, [10_000_000, 10_000_000, 1000, 1000, 100].flatMap { int32($0) })
            + item("GPS5", "l", size: 20, count: 1, [601_699_000, 249_384_000, 25_000, 0, 0].flatMap { int32($0) })
        let strm = item("STRM", "\0", size: 4, count: stream.count / 4, stream)
        return item("DEVC", "\0", size: 4, count: strm.count / 4, strm)
    }

    @Test(
        "GPSA MSLV: the altitude is above sea level; WGS84 or none: on the ellipsoid",
        arguments: [
            ("MSLV", true), ("WGS8", false), (nil, false),
        ] as [(String?, Bool)])
    func datum(gpsa: String?, seaLevel: Bool) throws {
        let decoded = try #require(try GPMFGPSPayload.decode(try GPMFItem.parse(Self.payload(datum: gpsa))))
        #expect(decoded.altitudeIsMeanSeaLevel == seaLevel)
        let track = GPMFTrackBuilder.track(
            file: "gpsa.mp4", payloads: [(0, 1, decoded)], payloadCount: 1, damaged: 0, warnings: [])
        let fix = try #require(track.fixes.first)
        if seaLevel {
            #expect(fix.coordinate.altitude == nil && fix.altitudeMeanSeaLevel == 25)
        } else {
            #expect(fix.coordinate.altitude == 25)
        }
    }
}
