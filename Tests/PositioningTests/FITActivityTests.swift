import ArcaptureCore
import Foundation
import TestSupport
import Testing

@testable import Positioning

/// FIT activity files (issue 40, item 3) on the real samples in `samples/fit/` (python-fitparse's
/// test files: Garmin, Wahoo, Zwift, Stryd and Strava's app), checked against fitdecode's reading of
/// each (`Fixtures/fit-expected/`, written by `Fixtures/make-fit-expected.py`), never against
/// arcapture's own output.
@Suite("FIT activity files")
struct FITActivityTests {
    static func path(_ name: String) -> String { PackagePaths.sample("fit/\(name)") }

    /// fitdecode's reading: its counts, the error it stopped with, and the records it kept.
    struct Expected {
        var records: Int
        var positioned: Int
        /// Records with a position whose time is not after the last kept one's.
        var repeated: Int
        var error: String
        /// The records with a position whose time moves forward (every one, or every 7th).
        var rows: [(time: Int, latitude: Int32, longitude: Int32, altitude: Double?, speed: Double?)]
    }

    static func expected(_ name: String) throws -> Expected {
        let url = PackagePaths.root.appendingPathComponent("Tests/PositioningTests/Fixtures/fit-expected")
            .appendingPathComponent(name.replacingOccurrences(of: ".fit", with: ".csv"))
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        let header = try #require(lines.first)
        let numbers = header.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        // "# fitdecode 0.10.0: 3098 records, 2965 with a position, 3 not after the one before; error: none"
        let parts: [String] = header.components(separatedBy: "error: ")
        let error: String = parts.last ?? ""
        var rows: [(time: Int, latitude: Int32, longitude: Int32, altitude: Double?, speed: Double?)] = []
        for line in lines.dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 6, cells[5] == "1" else { continue }
            rows.append(
                (Int(cells[0]) ?? 0, Int32(cells[1]) ?? 0, Int32(cells[2]) ?? 0, Double(cells[3]), Double(cells[4])))
        }
        return Expected(records: numbers[3], positioned: numbers[4], repeated: numbers[5], error: error, rows: rows)
    }

    @Test(
        "every fix at fitdecode's time and place, with its altitude and speed",
        arguments: [
            "garmin-fenix-5-run.fit", "garmin-fenix-5-walk.fit", "2013-02-06-12-11-14.fit",
            "elemnt-bolt-no-application-id-inside-developer-data-id.fit", "sample-activity.fit",
            "developer-types-sample.fit", "null_compressed_speed_dist.fit",
        ])
    func matchesFitdecode(name: String) throws {
        let expected = try Self.expected(name)
        #expect(expected.error == "none")
        let track = try FITActivity.load(Self.path(name))
        #expect(track.fixes.count == expected.positioned - expected.repeated, "\(track.summary)")
        #expect(track.warningCount == expected.repeated)
        #expect(track.summary.contains("from \(expected.records) records (FIT"), "\(track.summary)")
        let byTime = Dictionary(track.fixes.map { (Int($0.time.timeIntervalSince1970), $0) }) { first, _ in first }
        let semicircle = 180 / 2_147_483_648.0
        for row in expected.rows {
            let fix = try #require(byTime[row.time], "no fix at \(row.time)")
            #expect(fix.coordinate.latitude == Double(row.latitude) * semicircle)
            #expect(fix.coordinate.longitude == Double(row.longitude) * semicircle)
            #expect(fix.altitudeMeanSeaLevel.map { abs($0 - (row.altitude ?? .nan)) < 1e-9 } ?? (row.altitude == nil))
            #expect(fix.speed.map { abs($0 - (row.speed ?? .nan)) < 1e-9 } ?? (row.speed == nil))
        }
    }

    @Test("a file cut off mid-message: the records before it kept, the byte named, as fitdecode stops there")
    func strava() throws {
        let expected = try Self.expected("strava-android-app-201.10-b1218918.fit")
        #expect(expected.error == "FIT parsing error @ 7471: local message 11 not defined")
        let track = try FITActivity.load(Self.path("strava-android-app-201.10-b1218918.fit"))
        #expect(
            track.warnings.first
                == "\(Self.path("strava-android-app-201.10-b1218918.fit")): byte 7471: local message 11 is used before "
                + "it is defined; the 473 records before it are read")
        #expect(track.summary.contains("from \(expected.records) records"), "\(track.summary)")
        #expect(track.fixes.count == expected.positioned - expected.repeated, "\(track.summary)")
        let first = try #require(expected.rows.first)
        #expect(Int(track.fixes[0].time.timeIntervalSince1970) == first.time)
    }

    @Test("files without positions: refused naming why (an indoor trainer, a watch, relative times)")
    func noPositions() throws {
        for name in [
            "sample-activity-indoor-trainer.fit", "compressed-speed-distance.fit", "antfs-dump.63.fit",
            "event_timestamp.fit",
        ] {
            #expect(try Self.expected(name).positioned == 0)
            #expect {
                try FITActivity.load(Self.path(name))
            } throws: { error in
                "\(error)".contains("none of its") && "\(error)".contains("records has a position")
            }
        }
    }

    @Test("damage: a changed byte fails the CRC, a corrupt header is named, a cut file keeps what it had")
    func damage() throws {
        let directory = try PackagePaths.temporaryDirectory("fit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let bytes = [UInt8](try InputFile.read(Self.path("garmin-fenix-5-run.fit")))
        let write = { (name: String, content: [UInt8]) -> String in
            let path = directory.appendingPathComponent(name).path
            _ = FileManager.default.createFile(atPath: path, contents: Data(content))
            return path
        }
        var changed = bytes
        changed[2000] ^= 0x01
        let crc = write("changed.fit", changed)
        #expect {
            try FITActivity.load(crc)
        } throws: { error in
            "\(error)".hasPrefix("\(crc): byte \(bytes.count - 2): the CRC does not match")
        }
        var header = bytes
        header[0] = 13
        let corrupt = write("header.fit", header)
        #expect {
            try FITActivity.load(corrupt)
        } throws: { error in
            "\(error)" == "\(corrupt): byte 0: a corrupt header: its size is 13 (a FIT header is 12 or 14 bytes)"
        }
        // Cut inside the 11th record.
        let cut = write("cut.fit", Array(bytes.prefix(try FITDecoder(bytes).records[10].offset + 3)))
        let track = try FITActivity.load(cut)
        #expect(track.fixes.count == 10)
        #expect(track.warnings.first?.contains("cut short") == true, "\(track.warnings)")
        #expect(try RecordedTrack.load(cut).fixes.count == track.fixes.count, "read by content, whatever its name")
    }

    @Test("two files chained, as devices that append write them: both read, the chain counted")
    func chained() throws {
        let directory = try PackagePaths.temporaryDirectory("fit")
        defer { try? FileManager.default.removeItem(at: directory) }
        let walk = try InputFile.read(Self.path("garmin-fenix-5-walk.fit"))
        let run = try InputFile.read(Self.path("garmin-fenix-5-run.fit"))
        let path = directory.appendingPathComponent("chain.fit").path
        _ = FileManager.default.createFile(atPath: path, contents: walk + run)
        let track = try FITActivity.load(path)
        #expect(track.fixes.count == 17 + 21)
        #expect(track.summary.contains("2 files chained"), "\(track.summary)")
    }
}
