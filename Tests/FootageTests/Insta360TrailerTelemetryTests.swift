import Foundation
import Positioning
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage

/// The Insta360 ONE R sample's trailer (issue 40, item 5), read by arcapture and by ExifTool: as
/// it is (its two GPS records have no position), and with those records written over with
/// positions the test chose.
@Suite("A video's Insta360 trailer")
struct Insta360TrailerTelemetryTests {
    static let sample = PackagePaths.sample("action-cam/insta360-one-r.insv")

    /// ExifTool's GPS documents of `path`: time, latitude, longitude, altitude, speed (km/h).
    static func exifTool(_ path: String) async throws -> [(time: String, values: [Double])] {
        let run = try await ProcessRunner.run(
            tool: "exiftool",
            [
                "-ee", "-n", "-j", "-G3", "-GPSDateTime", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-GPSSpeed",
                path,
            ],
            install: "apt-get install libimage-exiftool-perl")
        let tags = try #require(
            (try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])?.first)
        return (1...400).compactMap { number in
            guard let time = tags["Doc\(number):GPSDateTime"] as? String else { return nil }
            let values = ["GPSLatitude", "GPSLongitude", "GPSAltitude", "GPSSpeed"].map {
                tags["Doc\(number):\($0)"] as? Double ?? .nan
            }
            return (time, values)
        }
    }

    @Test("as it is: two GPS records, no position in either; ExifTool finds the same two, at 0°, 0°")
    func sampleWithoutFix() async throws {
        // A trailer is telemetry, but one without a fix carries no GPS: not damage.
        #expect(EmbeddedTelemetry.hasTelemetry(Self.sample))
        #expect {
            try EmbeddedTelemetry.read(Self.sample)
        } throws: { error in
            guard let error = error as? InputFileError, let reason = EmbeddedTelemetry.noGPSReason(error) else {
                return false
            }
            return reason.contains("its Insta360 trailer's 2 GPS records have no fix")
        }
        let theirs = try await Self.exifTool(Self.sample)
        #expect(theirs.count == 2)
        #expect(theirs.allSatisfy { $0.time == "2022:12:18 20:15:21Z" && $0.values[0] == 0 && $0.values[1] == 0 })
    }

    @Test("its GPS records given positions: arcapture's fixes are ExifTool's")
    func rewritten() async throws {
        let directory = try PackagePaths.temporaryDirectory("insta360")
        defer { try? FileManager.default.removeItem(at: directory) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.sample)))
        // The GPS record (type 7): walked back from the footer, as the layout says.
        func le32(_ at: Int) -> Int { (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var end = bytes.count - 72
        var gps: Range<Int>?
        while end > bytes.count - le32(bytes.count - 40), gps == nil {
            let size = le32(end - 4)
            if bytes[end - 5] == 7 { gps = (end - 6 - size)..<(end - 6) }
            end -= 6 + size
        }
        let range = try #require(gps)
        #expect(range.count == 106, "two 53-byte records")
        func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let positions = [(-33.86885, 151.20935, 41.5, 3.0), (-33.86875, 151.20945, 42.0, 4.0)]
        var records: [UInt8] = []
        for (index, (latitude, longitude, altitude, speed)) in positions.enumerated() {
            records += little(UInt64(1_671_394_521 + index)) + little(UInt16(250)) + [UInt8(ascii: "A")]
            records += little(abs(latitude).bitPattern) + [UInt8(ascii: "S")]
            records += little(longitude.bitPattern) + [UInt8(ascii: "E")]
            records += little(speed.bitPattern) + little(Double(45).bitPattern) + little(altitude.bitPattern)
        }
        bytes.replaceSubrange(range, with: records)
        let path = directory.appendingPathComponent("VID_20221218_201521_00_001.insv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        #expect(EmbeddedTelemetry.hasTelemetry(path))
        let read = try EmbeddedTelemetry.read(path)
        #expect(read.videoStart == nil && !read.isRelative, "the records are UTC, not tied to the frames")
        #expect(read.origin == "\(path)'s Insta360 trailer")
        let theirs = try await Self.exifTool(path)
        #expect(read.track.fixes.count == 2 && theirs.count == 2)
        for (fix, their) in zip(read.track.fixes, theirs) {
            // ExifTool 12.57 leaves out the records' milliseconds (250 here); arcapture keeps them.
            let time = try #require(ExifToolTrack.time(their.time))
            #expect(abs(fix.time.timeIntervalSince(time) - 0.25) < 0.001, "\(their.time)")
            #expect(fix.coordinate.latitude == their.values[0] && fix.coordinate.longitude == their.values[1])
            #expect(fix.altitudeMeanSeaLevel == their.values[2])
            #expect(abs((fix.speed ?? 0) * 3.6 - their.values[3]) < 1e-9, "ExifTool gives km/h")
        }
        #expect(read.track.fixes.map(\.coordinate.latitude) == [-33.86885, -33.86875])
    }
}
