import Foundation
import Testing

@testable import ArcaptureCore
@testable import Positioning

/// CAMM records as Google's specification lays them out, written here: the epochs, positions
/// without a time, and damage.
@Suite("CAMM telemetry records")
struct CAMMTrackBuilderTests {
    private func little<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian, Array.init)
    }

    /// A type 6 record: a 3D fix at `time` (as written) and `latitude`, `longitude`.
    private func gps(_ time: Double, _ latitude: Double, _ longitude: Double, fix: Int32 = 3) -> [UInt8] {
        little(UInt16(0)) + little(UInt16(6)) + little(time.bitPattern) + little(fix) + little(latitude.bitPattern)
            + little(longitude.bitPattern) + little(Float(100).bitPattern) + [UInt8](repeating: 0, count: 24)
    }

    /// A type 5 record.
    private func position(_ latitude: Double, _ longitude: Double) -> [UInt8] {
        little(UInt16(0)) + little(UInt16(5)) + little(latitude.bitPattern) + little(longitude.bitPattern)
            + little(Double(50).bitPattern)
    }

    @Test("GPS-epoch times lose their leap seconds; a camera counting from 1970 is told by the creation time")
    func epochs() throws {
        // 2019-11-18T23:45:15Z: 1,258,155,933 s on the GPS clock, 1,574,120,715 s since 1970.
        var gpsCamera = CAMMTrackBuilder(path: "a.mp4")
        gpsCamera.add(
            time: 0, duration: 1, bytes: gps(1_258_155_933, 33.1, -117.3) + gps(1_258_155_933.5, 33.2, -117.3))
        let created = Date(timeIntervalSince1970: 1_574_120_000)
        let a = try gpsCamera.finish(created: created)
        #expect(a.track.fixes.map(\.time.timeIntervalSince1970) == [1_574_120_715, 1_574_120_715.5])
        #expect(a.videoStart?.timeIntervalSince1970 == 1_574_120_715 && !a.isRelative)
        var unixCamera = CAMMTrackBuilder(path: "b.mp4")
        unixCamera.add(time: 2, duration: 1, bytes: gps(1_574_120_717, 33.1, -117.3))
        let b = try unixCamera.finish(created: created)
        #expect(b.track.fixes.first?.time.timeIntervalSince1970 == 1_574_120_717)
        #expect(b.videoStart?.timeIntervalSince1970 == 1_574_120_715)
        #expect(b.track.summary.contains("times counted from 1970 as this camera writes them"))
        // Without a creation time, the specification's epoch.
        let c = try unixCamera.finish(created: nil)
        let spec = try #require(c.track.fixes.first?.time.timeIntervalSince1970)
        #expect(abs(spec - (315_964_800 + 1_574_120_717 - 18)) < 1e-6, "\(spec)")
        #expect(CAMMTrackBuilder.leapSeconds(at: 1_400_000_000) == 16)
    }

    @Test("positions without a time are timed by their place in the video, spread over their sample")
    func untimedPositions() throws {
        var builder = CAMMTrackBuilder(path: "c.mp4")
        builder.add(time: 1, duration: 1, bytes: position(45, 7) + position(45.001, 7))
        builder.add(time: 2, duration: 1, bytes: position(0, 0))
        let read = try builder.finish(created: nil)
        #expect(read.isRelative && read.videoStart == nil)
        #expect(read.track.fixes.map(\.time.timeIntervalSince1970) == [1, 1.5])
        #expect(read.track.summary.contains("type 5, timed by their place in the video only); 1 records without a fix"))
    }

    @Test("a record of no CAMM type or cut short ends its sample with a warning; no fix at all is an error")
    func damage() throws {
        var builder = CAMMTrackBuilder(path: "d.mp4")
        builder.add(
            time: 0, duration: 1, bytes: gps(1_258_155_933, 33.1, -117.3) + little(UInt16(0)) + little(UInt16(9)))
        builder.add(time: 1, duration: 1, bytes: Array(gps(1_258_155_934, 33.1, -117.3).prefix(40)))
        let read = try builder.finish(created: nil)
        #expect(read.track.fixes.count == 1)
        #expect(
            read.track.warnings == [
                "d.mp4: telemetry at 0.00 s: byte 60: record type 9 is not one of CAMM's (0–7); the rest of the sample skipped",
                "d.mp4: telemetry at 1.00 s: byte 0: a type 6 record of 60 bytes is cut short (40 left)",
            ])
        var none = CAMMTrackBuilder(path: "e.mp4")
        none.add(time: 0, duration: 1, bytes: gps(1_258_155_933, 33.1, -117.3, fix: 0))
        #expect {
            try none.finish(created: nil)
        } throws: { error in
            (error as? InputFileError)?.description == "e.mp4: its CAMM track's 1 GPS records have no fix"
        }
    }
}
