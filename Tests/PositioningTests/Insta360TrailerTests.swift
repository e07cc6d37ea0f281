import Foundation
import Testing

@testable import ArcaptureCore
@testable import Positioning

/// The Insta360 trailer's GPS records (issue 40, item 5), on trailers this file writes from the
/// layout ExifTool, insvtools and telemetry-parser read (see `Insta360Trailer`): walked back from
/// the footer, or through an index.
@Suite("Insta360 trailers")
struct Insta360TrailerTests {
    /// One GPS record as the layout gives it.
    struct Record {
        var seconds: UInt64
        var milliseconds: UInt16 = 0
        var fix: Character = "A"
        var latitude: Double
        var north: Character = "N"
        var longitude: Double
        var east: Character = "E"
        var speed = 0.0
        var course = 0.0
        var altitude = 0.0

        var bytes: [UInt8] {
            func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
                withUnsafeBytes(of: value.littleEndian, Array.init)
            }
            return little(seconds) + little(milliseconds) + [UInt8(ascii: fix.unicodeScalars.first ?? "V")]
                + little(latitude.bitPattern) + [UInt8(ascii: north.unicodeScalars.first ?? "N")]
                + little(longitude.bitPattern) + [UInt8(ascii: east.unicodeScalars.first ?? "E")]
                + little(speed.bitPattern) + little(course.bitPattern) + little(altitude.bitPattern)
        }
    }

    static func little32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }

    /// A record of `type` with its 6 bytes after it.
    static func record(type: UInt8, _ payload: [UInt8]) -> [UInt8] { payload + [0, type] + little32(payload.count) }

    /// `records` and the footer.
    static func trailer(_ records: [UInt8]) -> [UInt8] {
        let size = records.count + Insta360Trailer.footerSize
        return records + [UInt8](repeating: 7, count: 32) + little32(size) + little32(3) + Insta360Trailer.signature
    }

    static let records = [
        Record(
            seconds: 1_714_557_600, milliseconds: 500, latitude: 33.8688, north: "S", longitude: 151.2093,
            speed: 2.5, course: 90, altitude: 41.25),
        Record(seconds: 1_714_557_601, fix: "V", latitude: 33.87, north: "S", longitude: 151.21),
        Record(seconds: 1_714_557_602, latitude: 0, longitude: 0),
        Record(
            seconds: 1_714_557_603, latitude: 33.8689, north: "S", longitude: 151.2094, speed: 0.1,
            course: 270, altitude: 41.5),
        Record(seconds: 1_714_557_603, latitude: 33.8690, north: "S", longitude: 151.2095),
    ]

    @Test("records walked back from the footer: fixes in the south and east, no-fix and repeated records left out")
    func walked() throws {
        let trailer = Self.trailer(
            Self.record(type: 1, Array("info".utf8))
                + Self.record(type: 7, Self.records.prefix(2).flatMap(\.bytes))
                + Self.record(type: 3, [UInt8](repeating: 9, count: 40))
                + Self.record(type: 7, Self.records.suffix(3).flatMap(\.bytes)))
        let footer = Array(trailer.suffix(Insta360Trailer.footerSize))
        #expect(Insta360Trailer.size(footer: footer) == trailer.count)
        let track = try Insta360Trailer.track(trailer: trailer, path: "VID.insv")
        #expect(track.fixes.map(\.coordinate.latitude) == [-33.8688, -33.8689])
        #expect(track.fixes.map(\.coordinate.longitude) == [151.2093, 151.2094])
        #expect(track.fixes.map(\.time.timeIntervalSince1970) == [1_714_557_600.5, 1_714_557_603])
        #expect(track.fixes.map(\.altitudeMeanSeaLevel) == [41.25, 41.5])
        #expect(track.fixes.map(\.speed) == [2.5, 0.1])
        #expect(track.fixes.map(\.course) == [90, nil], "no course where there is no travel")
        #expect(
            track.summary
                == "2 fixes from its Insta360 trailer's 5 GPS records (UTC, not tied to the frames); 2 without a fix "
                + "left out; 1 not after the one before left out")
    }

    @Test("an index names the GPS records' place; a size past the trailer, or no fix at all, refused")
    func indexed() throws {
        // Records without their 6 bytes, found through the index (type 0) before the footer.
        let gps = Self.records.prefix(1).flatMap(\.bytes)
        let other = [UInt8](repeating: 1, count: 20)
        var index: [UInt8] = []
        index += [3, 0] + Self.little32(other.count) + Self.little32(0)
        index += [7, 0] + Self.little32(gps.count) + Self.little32(other.count)
        let trailer = Self.trailer(other + gps + Self.record(type: 0, index))
        let track = try Insta360Trailer.track(trailer: trailer, path: "VID.insv")
        #expect(track.fixes.map(\.coordinate.latitude) == [-33.8688])

        let broken = Self.trailer(Self.records[0].bytes + [0, 7] + Self.little32(5000))
        #expect(
            throws: InputFileError.malformed(
                file: "VID.insv", location: "Insta360 trailer byte 53",
                problem: "a record of type 7 claims 5000 bytes, more than the 53 before it")
        ) {
            try Insta360Trailer.track(trailer: broken, path: "VID.insv")
        }
        let noFix = Self.trailer(Self.record(type: 7, Self.records[1].bytes + Self.records[2].bytes))
        #expect(
            throws: InputFileError.malformed(
                file: "VID.insv", location: nil,
                problem: "its Insta360 trailer's 2 GPS records have no fix (the receiver had none, or the positions "
                    + "were removed)")
        ) {
            try Insta360Trailer.track(trailer: noFix, path: "VID.insv")
        }
        #expect(Insta360Trailer.size(footer: [UInt8](repeating: 0, count: 72)) == nil)
    }
}
