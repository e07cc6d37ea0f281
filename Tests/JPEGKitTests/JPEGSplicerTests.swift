import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import JPEGKit

/// Splicing frames with restart markers (``JPEGSplicer``) and our own restart markers.
///
/// No real webcam frame with restart markers could be found to ship (the public MJPEG samples read
/// have none), so the frames are made by libjpeg-turbo's own `cjpeg` (`-restart`, which is
/// libjpeg's `restart_in_rows` / `restart_interval`) from the webcam fixture's picture, cropped to
/// odd sizes; a UVC camera's lack of Huffman tables is made by cutting them out.
@Suite("JPEG splicing (restart intervals)")
struct JPEGSplicerTests {
    /// The fixture's picture as RGB, cropped to `width` x `height`.
    static func picture(width: Int, height: Int) throws -> [UInt8] {
        let image = try JPEGDecoder().decode(try Fixtures.webcamFrame())
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let luma = Double(image.planes[0][x, y])
                let cb = Double(image.planes[1][x / 2, y]) - 128
                let cr = Double(image.planes[2][x / 2, y]) - 128
                for value in [luma + 1.402 * cr, luma - 0.344136 * cb - 0.714136 * cr, luma + 1.772 * cb] {
                    rgb.append(UInt8(max(0, min(255, value.rounded()))))
                }
            }
        }
        return rgb
    }

    /// A frame made by `cjpeg` with `options` (its `-restart` among them).
    static func cjpeg(width: Int, height: Int, _ options: [String]) async throws -> [UInt8] {
        let folder = try PackagePaths.temporaryDirectory("splice")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ppm = folder.appendingPathComponent("in.ppm")
        try Data(Array("P6\n\(width) \(height)\n255\n".utf8) + picture(width: width, height: height)).write(to: ppm)
        let out = folder.appendingPathComponent("out.jpg")
        let result = try await ProcessRunner.run(
            tool: "cjpeg", options + ["-outfile", out.path, ppm.path], install: "apt-get install libjpeg-turbo-progs")
        #expect(result.status == 0, "\(result.stderr)")
        return [UInt8](try Data(contentsOf: out))
    }

    /// `bytes` without its DHT segments, as a UVC camera sends a frame.
    static func withoutHuffmanTables(_ bytes: [UInt8]) throws -> [UInt8] {
        let segments = try #require(JPEGStructure.headerSegments(of: bytes))
        var out = bytes
        for segment in segments.reversed() where segment.marker == 0xC4 { out.removeSubrange(segment.range) }
        return out
    }

    /// Draws a rectangle of rows and a band of columns as an overlay would, preparing it first.
    static func draw(rows: Range<Int>, on image: inout YCbCrImage, splicer: JPEGSplicer?) {
        let columns = (image.width / 5)..<(image.width * 3 / 5)
        splicer?.prepare(rows: rows, columns: columns, in: &image)
        for y in rows where y < image.height {
            for x in columns { image.planes[0][x, y] = UInt8((x * 7 + y * 3) % 256) }
        }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var width: Int
        var height: Int
        var options: [String]
        var stripTables = false
        var testDescription: String {
            "\(width)x\(height) \(options.joined(separator: " "))\(stripTables ? " no DHT" : "")"
        }
    }

    static let cases: [Case] = [
        Case(width: 320, height: 240, options: ["-sample", "2x1", "-restart", "1"]),
        Case(width: 320, height: 240, options: ["-sample", "2x1", "-restart", "1"], stripTables: true),
        Case(width: 317, height: 237, options: ["-sample", "2x2", "-restart", "1"]),
        Case(width: 319, height: 211, options: ["-sample", "1x1", "-restart", "2"]),
        Case(width: 301, height: 203, options: ["-sample", "2x1", "-restart", "7B"]),
        Case(width: 250, height: 190, options: ["-sample", "2x2", "-restart", "5B"], stripTables: true),
        Case(width: 203, height: 101, options: ["-grayscale", "-restart", "3B"]),
        Case(width: 320, height: 240, options: ["-sample", "1x2", "-restart", "1"]),
        // No restart markers: the scan is one interval, written again MCU by MCU.
        Case(width: 320, height: 240, options: ["-sample", "2x1"]),
        Case(width: 317, height: 237, options: ["-sample", "2x2"], stripTables: true),
        Case(width: 319, height: 211, options: ["-sample", "1x1"]),
        Case(width: 203, height: 101, options: ["-grayscale"]),
    ]

    @Test("spliced frames equal the input outside the touched MCUs and the full encode inside", arguments: cases)
    func exactness(_ testCase: Case) async throws {
        var input = try await Self.cjpeg(
            width: testCase.width, height: testCase.height, ["-quality", "85"] + testCase.options)
        if testCase.stripTables { input = try Self.withoutHuffmanTables(input) }
        let splicer = try JPEGSplicer()
        var canvas = YCbCrImage(width: 8, height: 8, subsampling: .gray)
        #expect(splicer.begin(input, canvas: &canvas), "\(splicer.refusal ?? "")")
        let touched = [(testCase.height / 3)..<(testCase.height / 3 + 5), (testCase.height - 3)..<testCase.height]
        for rows in touched { Self.draw(rows: rows, on: &canvas, splicer: splicer) }
        let spliced = try splicer.finish(&canvas)
        let (mcuWidth, mcuHeight, mcusPerRow) = (splicer.mcuWidth, splicer.mcuHeight, splicer.mcusPerRow)
        let touchedRows = Set(splicer.touchedMCURows)
        #expect(!touchedRows.isEmpty && touchedRows.count < (testCase.height + mcuHeight - 1) / mcuHeight)

        // The reference: the whole frame decoded, drawn on, encoded with the same tables (cjpeg's
        // -quality 85 tables are libjpeg's scaled standard ones, which the encoder makes again).
        let decoder = try JPEGDecoder()
        let original = try decoder.decode(input)
        var drawn = original
        for rows in touched { Self.draw(rows: rows, on: &drawn, splicer: nil) }
        let reference = try decoder.decode(try JPEGEncoder().encodeWithLibJPEG(drawn, quality: 85, restartRows: 0))
        let output = try decoder.decode(spliced)
        #expect(output.subsampling == original.subsampling && output.width == testCase.width)
        let scan = try #require(input.withUnsafeBytes { JPEGRestartScan($0) })
        let touchedMCUs = Set(splicer.touchedMCUs)
        var differing = Set<Int>()
        for (index, plane) in output.planes.enumerated() {
            // The MCU each sample belongs to.
            let gray = scan.components.count == 1
            let blockWidth = gray ? 8 : scan.components[index].h * 8
            let blockHeight = gray ? 8 : scan.components[index].v * 8
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    let mcu = y / blockHeight * mcusPerRow + x / blockWidth
                    let expected = touchedMCUs.contains(mcu) ? reference : original
                    if plane[x, y] != expected.planes[index][x, y] {
                        differing.insert(touchedMCUs.contains(mcu) ? mcu : -1 - mcu)
                    }
                }
            }
        }
        #expect(differing.isEmpty, "MCUs that differ (negative: not touched): \(differing.sorted())")
        // The intervals not touched are the input's bytes; the output has Huffman tables.
        let outScan = try #require(spliced.withUnsafeBytes { JPEGRestartScan($0) })
        #expect(outScan.hasHuffmanTables && outScan.intervals.count == scan.intervals.count)
        let touchedIntervals = Set(splicer.touchedIntervals)
        for index in scan.intervals.indices where !touchedIntervals.contains(index) {
            #expect(input[scan.intervals[index]] == spliced[outScan.intervals[index]])
        }
        // Touched: every MCU holding a drawn pixel, and no other.
        let columns = (testCase.width / 5)..<(testCase.width * 3 / 5)
        let drawnRows = touched.flatMap { Array($0) }.filter { $0 < testCase.height }
        let expectedMCUs = Set(
            drawnRows.flatMap { y in
                (columns.lowerBound / mcuWidth...(columns.upperBound - 1) / mcuWidth).map {
                    y / mcuHeight * mcusPerRow + $0
                }
            })
        // An interval at least half drawn on is coded again whole; others MCU by MCU.
        let total = mcusPerRow * ((testCase.height + mcuHeight - 1) / mcuHeight)
        let wholly = Set(expectedMCUs.map { $0 / scan.restartInterval }).filter { interval in
            let mcus = (interval * scan.restartInterval)..<min(total, (interval + 1) * scan.restartInterval)
            return mcus.count(where: { expectedMCUs.contains($0) }) * 2 >= mcus.count
        }
        let expectedTouched = expectedMCUs.union(
            wholly.flatMap { ($0 * scan.restartInterval)..<min(total, ($0 + 1) * scan.restartInterval) })
        #expect(touchedMCUs == expectedTouched)
        #expect(touchedIntervals == Set(expectedMCUs.map { $0 / scan.restartInterval }))
        #expect(touchedMCUs.count < mcusPerRow * touchedRows.count, "whole rows coded again")
    }

}

extension JPEGSplicerTests {
    @Test(
        "libjpeg's path writes TurboJPEG's bytes, and with restart markers the same samples",
        arguments: [
            (640, 480, ChromaSubsampling.s422), (641, 479, .s420), (333, 217, .s444), (101, 77, .gray),
            (318, 239, .s440), (250, 99, .s411),
        ])
    func libjpegPath(width: Int, height: Int, subsampling: ChromaSubsampling) throws {
        let image = JPEGCodecTests.gradient(width: width, height: height, subsampling: subsampling)
        let encoder = try JPEGEncoder()
        for quality in [75, 90, 97] {
            let turbo = try encoder.encode(image, quality: quality)
            #expect(try encoder.encodeWithLibJPEG(image, quality: quality, restartRows: 0) == turbo)
            let restarted = try encoder.encode(image, quality: quality, restartRows: 1)
            let scan = try #require(restarted.withUnsafeBytes { JPEGRestartScan($0) })
            #expect(scan.restartInterval == scan.mcusPerRow && scan.intervals.count == scan.mcuRows)
            // Restart markers change the coding, not the coefficients.
            let decoder = try JPEGDecoder()
            #expect(try decoder.decode(restarted) == decoder.decode(turbo))
            #expect(restarted.count > turbo.count && restarted.count < turbo.count + scan.mcuRows * 8)
        }
    }

    @Test("damaged restart markers and intervals are refused, and the full decode refuses them too")
    func damaged() async throws {
        let input = try await Self.cjpeg(
            width: 320, height: 240, ["-quality", "85", "-sample", "2x1", "-restart", "1"])
        let scan = try #require(input.withUnsafeBytes { JPEGRestartScan($0) })
        let splicer = try JPEGSplicer()
        var canvas = YCbCrImage(width: 8, height: 8, subsampling: .gray)
        #expect(splicer.begin(input, canvas: &canvas))
        // A marker missing, two out of order, an interval's end cut off, the frame cut off, bytes
        // after an interval's last MCU.
        let marker = scan.intervals[5].upperBound
        var missing = input
        missing.removeSubrange(marker..<(marker + 2))
        var swapped = input
        swapped[marker + 1] = 0xD6
        var short = input
        short.removeSubrange((scan.intervals[7].upperBound - 6)..<scan.intervals[7].upperBound)
        let cut = Array(input[..<scan.intervals[20].upperBound])
        var extra = input
        extra.insert(contentsOf: [0x12, 0x34, 0x56], at: scan.intervals[9].upperBound)
        let decoder = try JPEGDecoder()
        // Markers are checked at the start; an interval's codes when it is indexed or decoded
        // (touched) or before it is copied (not touched).
        for (name, frame) in [("missing", missing), ("swapped", swapped), ("cut", cut)] {
            #expect(!splicer.begin(frame, canvas: &canvas), "\(name)")
            #expect(splicer.refusal != nil)
            #expect(throws: JPEGError.self, "\(name)") { try decoder.decode(frame) }
        }
        for (name, frame) in [("short", short), ("extra", extra)] {
            // Not touched (copied), touched in a few MCUs (indexed and written again), touched
            // whole (decoded by libjpeg-turbo, which fails it).
            for touched in [0, 16, 320] {
                #expect(splicer.begin(frame, canvas: &canvas), "\(name)")
                splicer.prepare(rows: 0..<240, columns: 0..<touched, in: &canvas)
                #expect(throws: JPEGError.self, "\(name), touched \(touched)") { try splicer.finish(&canvas) }
                // A damaged interval copied or indexed is refused: the full decode decides.
                #expect((splicer.refusal != nil) == (touched < 320), "\(name), touched \(touched)")
                #expect((splicer.failure != nil) == (touched == 320), "\(name), touched \(touched)")
            }
            #expect(throws: JPEGError.self, "\(name)") { try decoder.decode(frame) }
        }
        #expect(splicer.begin(input, canvas: &canvas))
        #expect(throws: Never.self) { try splicer.finish(&canvas) }
        // Bytes cut from inside an interval: Huffman codes resynchronise, and often the interval
        // still decodes to its MCUs (djpeg takes it without a warning too). The splicer must never
        // take a frame the full decode refuses (its walk may refuse more: those are decoded whole).
        var taken = 0
        for start in stride(from: 0, to: 60, by: 3) {
            for count in [1, 2, 6] {
                var damaged = input
                damaged.removeSubrange(
                    (scan.intervals[7].lowerBound + start)..<(scan.intervals[7].lowerBound + start + count))
                if splicer.begin(damaged, canvas: &canvas), (try? splicer.finish(&canvas)) != nil {
                    taken += 1
                    #expect((try? decoder.decode(damaged)) != nil, "cut \(count) at \(start)")
                }
            }
        }
        #expect(taken > 0)
    }

    @Test("DC values no 8-bit picture has are refused before a difference baseline cannot code is written")
    func dcOutOfRange() throws {
        // Found by the jpeg-splice fuzz target: a 48x32 4:2:2 frame whose luma DC values drift to
        // about -2,300 (samples give at most ±1,024 / quantiser). A drawn MCU's DC coded against
        // the camera's MCU before it needs category 12, which baseline has no code for: it was
        // written with a code read past the table, and libjpeg-turbo could not read the frame.
        let path = PackagePaths.root.appendingPathComponent("fuzz/regressions/jpeg-splice/dc-category-12.bin")
        let frame = [0xFF, 0xD8] + [UInt8](try Data(contentsOf: path))
        #expect(throws: Never.self) { try JPEGDecoder().decode(frame) }
        let splicer = try JPEGSplicer()
        var canvas = YCbCrImage(width: 8, height: 8, subsampling: .gray)
        #expect(splicer.begin(frame, canvas: &canvas))
        // MCU 4 (the last of interval 0) and MCU 7 (in interval 1), as the fuzz target drew.
        splicer.prepare(rows: 8..<24, columns: 16..<23, in: &canvas)
        #expect(throws: JPEGError.self) { try splicer.finish(&canvas) }
        #expect(splicer.refusal == "a DC value out of range for baseline coding", "the full decode decides")
    }

    @Test("a restart marker every MCU at 1920x1080 (16,200 intervals), every interval touched")
    func everyMCU() async throws {
        // A synthetic picture (the fixture is smaller than the frame), cjpeg -restart 1B.
        let (width, height) = (1920, 1080)
        var rgb = [UInt8]()
        rgb.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width { rgb += [UInt8((x + y) % 256), UInt8((x * y / 64) % 256), UInt8((x ^ y) % 256)] }
        }
        let folder = try PackagePaths.temporaryDirectory("splice")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ppm = folder.appendingPathComponent("in.ppm")
        try Data(Array("P6\n\(width) \(height)\n255\n".utf8) + rgb).write(to: ppm)
        let out = folder.appendingPathComponent("out.jpg")
        let made = try await ProcessRunner.run(
            tool: "cjpeg", ["-quality", "80", "-sample", "2x1", "-restart", "1B", "-outfile", out.path, ppm.path],
            install: "apt-get install libjpeg-turbo-progs")
        #expect(made.status == 0, "\(made.stderr)")
        let input = [UInt8](try Data(contentsOf: out))
        let splicer = try JPEGSplicer()
        var canvas = YCbCrImage(width: 8, height: 8, subsampling: .gray)
        #expect(splicer.begin(input, canvas: &canvas))
        #expect(splicer.intervalCount == 16_200)
        splicer.prepare(rows: 0..<height, in: &canvas)
        let spliced = try splicer.finish(&canvas)
        // Nothing drawn: every interval decoded and encoded again with the same tables and
        // transform equals the input decoded, then encoded whole the same way.
        let decoder = try JPEGDecoder()
        let reference = try decoder.decode(
            try JPEGEncoder().encodeWithLibJPEG(try decoder.decode(input), quality: 80, restartRows: 0))
        #expect(try decoder.decode(spliced) == reference)
    }

    @Test("progressive, arithmetic, or without restart markers and mostly drawn on: the full path")
    func notSpliceable() async throws {
        let splicer = try JPEGSplicer()
        var canvas = YCbCrImage(width: 8, height: 8, subsampling: .gray)
        // Each refusal says why, for the run's summary.
        for (options, why) in [
            (["-progressive", "-restart", "1"], "progressive"), (["-arithmetic", "-restart", "1"], "arithmetic-coded"),
            (["-progressive"], "progressive"),
            (["-sample", "2x2,1x2,1x2"], "sampling factors 2x2, 1x2, 1x2, where splicing takes chroma at 1x1"),
        ] {
            let frame = try await Self.cjpeg(width: 160, height: 120, options)
            #expect(!splicer.begin(frame, canvas: &canvas), "\(options)")
            #expect(splicer.refusal == why, "\(options)")
        }
        // Optimised Huffman tables lack codes a re-encoded block may need.
        let optimised = try await Self.cjpeg(width: 160, height: 120, ["-optimize", "-restart", "1"])
        #expect(!splicer.begin(optimised, canvas: &canvas))
        #expect(splicer.refusal == "optimised Huffman tables, without codes a drawn block may need")
        // Without restart markers the frame is one interval, too long to decode as one small JPEG:
        // drawn over more than half, it is refused (decoded whole the full way) before anything
        // is decoded; drawn over less, it is spliced.
        let plain = try await Self.cjpeg(width: 160, height: 120, ["-sample", "2x1"])
        #expect(splicer.begin(plain, canvas: &canvas))
        splicer.prepare(rows: 0..<120, columns: 0..<100, in: &canvas)
        #expect(splicer.refusal != nil && splicer.touchedMCUs.isEmpty)
        #expect(throws: JPEGError.self) { try splicer.finish(&canvas) }
        #expect(splicer.begin(plain, canvas: &canvas))
        splicer.prepare(rows: 0..<120, columns: 0..<60, in: &canvas)
        #expect(splicer.refusal == nil && !splicer.touchedMCUs.isEmpty)
        #expect(throws: Never.self) { try splicer.finish(&canvas) }
    }
}
