import CaptureKit
import Foundation
import GeoAR
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import Footage
@testable import Positioning

/// The inputs fuzzing found a fault with (fuzz/regressions/), replayed on every run of the default
/// suite with the behaviour now expected; scripts/fuzz replays them under AddressSanitizer too.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    private static func input(_ target: String, _ name: String) throws -> Data {
        try Data(contentsOf: PackagePaths.root.appendingPathComponent("fuzz/regressions/\(target)/\(name)"))
    }

    @Test("output-template: a counter width of 8888888888 is cut to 20 digits, not gigabytes of zeros")
    func wideCounter() throws {
        let pattern = String(decoding: try Self.input("output-template", "oom-wide-counter"), as: UTF8.self)
        let name = OutputTemplate(pattern: pattern).name(counter: 12, date: Date(timeIntervalSince1970: 0))
        #expect(name.count < 100, "\(name.count) characters")
        #expect(name.contains(String(repeating: "0", count: 18) + "12"))
        #expect(OutputTemplate(pattern: "%30n").name(counter: 7, date: Date()).count == OutputTemplate.widestCounter)
    }

    @Test("y4m: an empty footage file is refused with a reason (Foundation's reader leaked on it)")
    func emptyFile() throws {
        let path = PackagePaths.root.appendingPathComponent("fuzz/regressions/y4m/empty-file-leak").path
        #expect(try Self.input("y4m", "empty-file-leak").isEmpty)
        #expect(throws: InputFileError.self) { try FootageInfo.probe(path) }
        #expect(throws: InputFileError.self) { try FootageReader(path: path) }
    }

    @Test("gpx: a declared UTF-7 encoding is refused by name (libxml2 crashed on it)")
    func utf7Encoding() throws {
        let data = try Self.input("gpx", "utf7-encoding-segv")
        #expect(
            throws: InputFileError.malformed(
                file: "t.gpx", location: "line 1",
                problem: "the XML declares encoding 'UTF-7'; GPX is read in UTF-8, UTF-16 or Latin-1")
        ) {
            try GPXFile(data: data, file: "t.gpx")
        }
    }

    @Test("mp4-boxes: a box whose 64-bit size is near 2^64 is damage, not an arithmetic overflow trap")
    func hugeBoxSize() throws {
        let data = try Self.input("mp4-boxes", "overflow-64bit-box-size")
        // Its second box says size 1 (a 64-bit size follows) and then 0xFFFF…: offset + size
        // overflowed.
        #expect(data.count == 103)
        let directory = try PackagePaths.temporaryDirectory("mp4-boxes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("damaged.mp4").path
        try data.write(to: URL(fileURLWithPath: path))
        #expect(MovieUserData(readingFileAt: path) == nil)
    }

    @Test("nmea: whole-number fields of 1e300 are damage, not a trap converting them to Int")
    func hugeWholeNumbers() throws {
        let text = String(decoding: try Self.input("nmea", "huge-whole-numbers"), as: UTF8.self)
        var decoder = NMEADecoder()
        var events: [LocationEvent] = []
        for (number, line) in text.split(separator: "\n").enumerated() {
            events += decoder.decode(line: line, lineNumber: number + 1)
        }
        events += decoder.flush()
        // GGA's fix quality, ZDA's year and GSA's mode: the first two are needed, the third is not.
        #expect(decoder.statistics.malformed == 2)
        #expect(decoder.statistics.badChecksums == 0)
        #expect(!events.contains { if case .fix = $0 { true } else { false } })
    }

    @Test("y4m: a header of W9999999999 H9999999999 is refused by name, not a trap computing the frame's size")
    func hugeSides() throws {
        let path = PackagePaths.root.appendingPathComponent("fuzz/regressions/y4m/huge-sides").path
        #expect(try Self.input("y4m", "huge-sides").starts(with: Array("YUV4MPEG2 W9999999999".utf8)))
        #expect {
            try FootageReader(path: path)
        } throws: { error in
            (error as? InputFileError)?.description.contains("larger than arcapture reads") == true
        }
    }
}
