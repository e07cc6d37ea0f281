import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import CaptureKit
@testable import JPEGKit

/// `annotate` over MJPEG with restart markers: spliced (the intervals the overlay leaves alone are
/// the input's bytes) unless `--no-splice` or `--quality`; `--restart-interval` in what it writes.
@Suite("arcapture annotate (splicing restart intervals)")
struct AnnotateSplicingTests {
    static let harbour = [
        "--track", PackagePaths.sample("footage/harbour.gpx"), "--start", "2022-08-14T11:12:32Z", "--fps", "8",
        "--heading-from-course", "--camera", PackagePaths.sample("footage/harbour-camera.yaml"),
        "--height-above-ground", "3",
    ]

    /// The JPEGs in `directory` whose names start with `prefix`, in order.
    static func clip(_ directory: URL, prefix: String) throws -> [[UInt8]] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(prefix) }.sorted()
            .map { [UInt8](try Data(contentsOf: directory.appendingPathComponent($0))) }
    }

    /// The planes of every frame of a 4:2:2 Y4M file (a header line, then FRAME lines and planes).
    static func y4mFrames(_ path: String) throws -> [[YCbCrImage.Plane]] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let newline = try #require(bytes.firstIndex(of: 0x0A))
        let header = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        #expect(header.contains("C422jpeg") || header.contains("C422"), "\(header)")
        let width = try #require(header.first { $0.hasPrefix("W") }.flatMap { Int($0.dropFirst()) })
        let height = try #require(header.first { $0.hasPrefix("H") }.flatMap { Int($0.dropFirst()) })
        var frames: [[YCbCrImage.Plane]] = []
        var offset = newline + 1
        while offset < bytes.count {
            let end = try #require(bytes[offset...].firstIndex(of: 0x0A))
            offset = end + 1
            var planes: [YCbCrImage.Plane] = []
            for planeWidth in [width, width / 2, width / 2] {
                var plane = YCbCrImage.Plane(width: planeWidth, height: height)
                plane.bytes = Array(bytes[offset..<(offset + planeWidth * height)])
                planes.append(plane)
                offset += planeWidth * height
            }
            frames.append(planes)
        }
        return frames
    }

    @Test("arcapture's own frames carry restart markers and are spliced when annotated again")
    func spliceOwnOutput() async throws {
        let directory = try PackagePaths.temporaryDirectory("splice")
        defer { try? FileManager.default.removeItem(at: directory) }
        // First pass: the sample footage annotated with the town's POIs (restart markers by default).
        let first = try await Binary.run(
            ["annotate", PackagePaths.sample("footage/harbour.mjpeg")] + Self.harbour + [
                "--pois", PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"),
                "--output", directory.appendingPathComponent("a-%02n.jpg").path,
            ])
        #expect(first.status == 0, "\(first.stderr)")
        // The summary says why the sample footage (ffmpeg's 4:2:2, luma 2x2 and chroma 1x2) was not
        // spliced.
        #expect(
            first.stderr.contains("; 0 of 48 spliced, not: sampling factors 2x2, 1x2, 1x2, where splicing takes"),
            "\(first.stderr)")
        let stage = try Self.clip(directory, prefix: "a-")
        #expect(stage.count == 48)
        for frame in stage {
            let scan = try #require(frame.withUnsafeBytes { JPEGRestartScan($0) }, "a restart marker every MCU row")
            #expect(scan.restartInterval == scan.mcusPerRow)
        }
        let clip = directory.appendingPathComponent("a.mjpeg")
        try Data(stage.joined()).write(to: clip)
        // Second pass: a route over it, spliced; then the same, transcoded (--quality).
        let route = ["--pois", PackagePaths.sample("pois/helsinki-senate-square.geojson")]
        let routeFile = PackagePaths.sample("routes/west-harbour-tour.geojson")
        for (name, extra) in [
            ("b", [String]()), ("c", ["--quality", "80"]), ("d", ["--no-splice", "--restart-interval", "0"]),
        ] {
            let run = try await Binary.run(
                ["annotate", clip.path] + Self.harbour + route + ["--route", routeFile, "--workers", "1"] + extra + [
                    "--output", directory.appendingPathComponent("\(name)-%02n.jpg").path,
                ])
            #expect(run.status == 0, "\(name): \(run.stderr)")
            // Spliced frames are counted; with splicing off (--quality, --no-splice) nothing is said.
            #expect(run.stderr.contains("skipped; 48 spliced; ") == (name == "b"), "\(name): \(run.stderr)")
            #expect(run.stderr.contains("spliced") == (name == "b"), "\(name): \(run.stderr)")
        }
        let spliced = try Self.clip(directory, prefix: "b-")
        let transcoded = try Self.clip(directory, prefix: "c-")
        let plain = try Self.clip(directory, prefix: "d-")
        #expect(spliced.count == 48 && transcoded.count == 48 && plain.count == 48)
        var copied = 0
        var total = 0
        for (index, frame) in spliced.enumerated() {
            let input = try #require(stage[index].withUnsafeBytes { JPEGRestartScan($0) })
            let output = try #require(frame.withUnsafeBytes { JPEGRestartScan($0) })
            // The camera's tables, the intervals the route leaves alone byte for byte.
            #expect(output.quantTables == input.quantTables)
            #expect(output.intervals.count == input.intervals.count)
            let same = zip(input.intervals, output.intervals).filter { stage[index][$0] == frame[$1] }.count
            copied += same
            total += input.intervals.count
            #expect(frame != stage[index], "frame \(index + 1) is drawn on")
            let c = try #require(transcoded[index].withUnsafeBytes { JPEGRestartScan($0) })
            #expect(c.quantTables != input.quantTables, "--quality re-encodes at its quality")
            #expect(
                plain[index].withUnsafeBytes { JPEGRestartScan($0) }?.hasRestartMarkers == false,
                "--restart-interval 0: no markers")
            // What the frame shows is the same either way (the same tables when transcoded at 90).
            let decodedSplice = try JPEGDecoder().decode(frame)
            let decodedPlain = try JPEGDecoder().decode(plain[index])
            #expect(JPEGCodecDifference.mean(decodedSplice.planes[0], decodedPlain.planes[0]) < 1.5)
        }
        #expect(copied > 0 && copied < total, "\(copied) of \(total) intervals copied")
        print("splice: \(copied) of \(total) intervals copied byte for byte")
    }
}

extension AnnotateSplicingTests {
    @Test("inside the intervals labels are drawn in, only the MCUs near what they paint are coded again")
    func spliceInsideIntervals() async throws {
        let directory = try PackagePaths.temporaryDirectory("splice")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pois = ["--pois", PackagePaths.sample("pois/helsinki_center_osm_pois.geojson")]
        // The camera's clip: the sample footage with a restart marker every MCU row, as our own
        // output has them (first pass, nothing drawn: no POIs, and no panel without a route).
        let empty = directory.appendingPathComponent("none.geojson")
        try Data(#"{"type": "FeatureCollection", "features": []}"#.utf8).write(to: empty)
        let first = try await Binary.run(
            ["annotate", PackagePaths.sample("footage/harbour.mjpeg")] + Self.harbour + [
                "--pois", empty.path, "--output", directory.appendingPathComponent("a-%02n.jpg").path,
            ])
        #expect(first.status == 0, "\(first.stderr)")
        let stage = try Self.clip(directory, prefix: "a-")
        let clip = directory.appendingPathComponent("a.mjpeg")
        try Data(stage.joined()).write(to: clip)
        // Labels spliced in, and the same overlay drawn on the decoded frames with no JPEG after
        // it (Y4M): where the overlay changes samples.
        let spliced = try await Binary.run(
            ["annotate", clip.path] + Self.harbour + pois + [
                "--workers", "1", "--output", directory.appendingPathComponent("b-%02n.jpg").path,
            ])
        #expect(spliced.status == 0, "\(spliced.stderr)")
        let y4m = directory.appendingPathComponent("c.y4m").path
        let drawn = try await Binary.run(
            ["annotate", clip.path] + Self.harbour + pois + ["--workers", "1", "--format", "y4m", "--output", y4m])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let splicedFrames = try Self.clip(directory, prefix: "b-")
        let drawnFrames = try Self.y4mFrames(y4m)
        #expect(stage.count == 48 && splicedFrames.count == 48 && drawnFrames.count == 48)
        var checked = 0
        for index in 0..<min(stage.count, splicedFrames.count, drawnFrames.count) {
            let scan = try #require(stage[index].withUnsafeBytes { JPEGRestartScan($0) })
            let camera = try JPEGDecoder().decode(stage[index])
            try #require(camera.subsampling == .s422, "MCUs counted as 4:2:2's")
            let changedByOverlay = JPEGCodecDifference.differingMCUs(
                drawnFrames[index], camera.planes, mcusPerRow: scan.mcusPerRow)
            let changedBySplice = JPEGCodecDifference.differingMCUs(
                try JPEGDecoder().decode(splicedFrames[index]).planes, camera.planes, mcusPerRow: scan.mcusPerRow)
            #expect(!changedByOverlay.isEmpty, "frame \(index + 1): the labels change the picture")
            // A label's or marker's box reaches a little past what it paints: one MCU around.
            // In an interval drawn in lightly, every MCU the spliced frame changes is near
            // the overlay; coding the whole interval again (as the splicer did before, and still
            // does for an interval at least half drawn on) changes MCUs all along it.
            let near = JPEGCodecDifference.dilated(changedByOverlay, mcusPerRow: scan.mcusPerRow, mcuRows: scan.mcuRows)
            for interval in scan.intervals.indices {
                let mcus = scan.mcus(ofInterval: interval)
                let drawnOn = mcus.count { near.contains($0) }
                guard drawnOn > 0, drawnOn * 2 < mcus.count else { continue }
                checked += 1
                let far = mcus.filter { changedBySplice.contains($0) && !near.contains($0) }
                #expect(
                    far.isEmpty, "frame \(index + 1), interval \(interval): MCUs changed away from the labels: \(far)")
            }
        }
        #expect(checked > 48, "intervals drawn in lightly: \(checked)")
        print("splice: \(checked) intervals drawn in lightly, changed only near the labels")
    }
}

/// Mean absolute difference of two planes of one size.
enum JPEGCodecDifference {
    static func mean(_ a: YCbCrImage.Plane, _ b: YCbCrImage.Plane) -> Double {
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width { total += abs(Int(a[x, y]) - Int(b[x, y])) }
        }
        return Double(total) / Double(a.width * a.height)
    }

    /// The 4:2:2 MCUs (16x8 luma samples, raster indices) where any plane of `a` differs from `b`.
    static func differingMCUs(_ a: [YCbCrImage.Plane], _ b: [YCbCrImage.Plane], mcusPerRow: Int) -> Set<Int> {
        var result = Set<Int>()
        for index in a.indices {
            let mcuWidth = index == 0 ? 16 : 8
            for y in 0..<a[index].height {
                for x in 0..<a[index].width where a[index][x, y] != b[index][x, y] {
                    result.insert(y / 8 * mcusPerRow + x / mcuWidth)
                }
            }
        }
        return result
    }

    /// `mcus` and their eight neighbours.
    static func dilated(_ mcus: Set<Int>, mcusPerRow: Int, mcuRows: Int) -> Set<Int> {
        var result = Set<Int>()
        for mcu in mcus {
            let (row, column) = (mcu / mcusPerRow, mcu % mcusPerRow)
            for r in max(0, row - 1)...min(mcuRows - 1, row + 1) {
                for c in max(0, column - 1)...min(mcusPerRow - 1, column + 1) { result.insert(r * mcusPerRow + c) }
            }
        }
        return result
    }
}
