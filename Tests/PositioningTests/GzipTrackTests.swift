import ArcaptureCore
import Foundation
import TestSupport
import Testing

@testable import Positioning

/// gzip-compressed tracks (issue 40, item 4), compressed by the real `gzip` tool: read as the file
/// inside reads.
@Suite("gzip-compressed tracks")
struct GzipTrackTests {
    /// `inputs` compressed by gzip one after another into the file at `path` (several members when
    /// more than one, as `gzip -c a b > path` writes them).
    static func gzip(_ inputs: [String], into path: String) async throws {
        let result = try await ProcessRunner.run(
            executable: "/bin/sh", arguments: ["-c", "gzip -c -9 \"$@\" > \"$0\"", path] + inputs)
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test("a .gpx.gz and a .fit.gz read as the files inside; members one after another read as one log")
    func readsAsInside() async throws {
        let directory = try PackagePaths.temporaryDirectory("gzip")
        defer { try? FileManager.default.removeItem(at: directory) }
        for sample in ["gpx/cerknicko-jezero.gpx", "fit/garmin-fenix-5-run.fit", "nmea/haicom-305N.log"] {
            let plain = PackagePaths.sample(sample)
            let compressed = directory.appendingPathComponent(URL(fileURLWithPath: plain).lastPathComponent + ".gz")
                .path
            try await Self.gzip([plain], into: compressed)
            let expected = try RecordedTrack.load(plain)
            let read = try RecordedTrack.load(compressed)
            #expect(read.fixes == expected.fixes && !read.fixes.isEmpty, "\(sample)")
        }
        // Two halves of one NMEA log, each compressed on its own, concatenated (`gzip -c a b`).
        let log = try String(contentsOfFile: PackagePaths.sample("nmea/haicom-305N.log"), encoding: .utf8)
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        let first = directory.appendingPathComponent("a.log").path
        let second = directory.appendingPathComponent("b.log").path
        try (lines.prefix(lines.count / 2).joined(separator: "\n") + "\n").write(
            toFile: first, atomically: true, encoding: .utf8)
        try lines.dropFirst(lines.count / 2).joined(separator: "\n").write(
            toFile: second, atomically: true, encoding: .utf8)
        let joined = directory.appendingPathComponent("joined.nmea.gz").path
        try await Self.gzip([first, second], into: joined)
        #expect(
            try RecordedTrack.load(joined).fixes
                == RecordedTrack.load(PackagePaths.sample("nmea/haicom-305N.log")).fixes)
    }

    @Test("cut short, damaged, or inflating past the bound: refused naming the file and what is wrong")
    func refused() async throws {
        let directory = try PackagePaths.temporaryDirectory("gzip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = directory.appendingPathComponent("track.gpx.gz").path
        try await Self.gzip([PackagePaths.sample("gpx/cerknicko-jezero.gpx")], into: whole)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = directory.appendingPathComponent("cut.gpx.gz").path
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: cut))
        #expect(
            throws: InputFileError.malformed(
                file: cut, location: nil,
                problem: "a gzip file: cut short: the compressed stream ends before its end mark")
        ) {
            try RecordedTrack.load(cut)
        }
        var damaged = bytes
        for index in 40..<60 { damaged[index] ^= 0xFF }
        #expect {
            try GzipFile.inflate(damaged, file: "damaged.gz")
        } throws: { error in
            "\(error)".hasPrefix("damaged.gz: a gzip file: damaged compressed data (zlib: ")
        }
        // 2 MB of zeros against a bound of 1 MB.
        let zeros = directory.appendingPathComponent("zeros").path
        try Data(count: 2 << 20).write(to: URL(fileURLWithPath: zeros))
        let bomb = directory.appendingPathComponent("zeros.gz").path
        try await Self.gzip([zeros], into: bomb)
        #expect {
            try GzipFile.inflate(Data(contentsOf: URL(fileURLWithPath: bomb)), file: "zeros.gz", maximumSize: 1 << 20)
        } throws: { error in
            "\(error)" == "zeros.gz: a gzip file: inflates past 1 MB: not a track"
        }
    }
}
