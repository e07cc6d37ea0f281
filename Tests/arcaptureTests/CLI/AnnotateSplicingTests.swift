import Foundation
import TestSupport
import Testing

@testable import CaptureKit

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

    @Test("arcapture's own frames carry restart markers and are spliced when annotated again")
    func spliceOwnOutput() throws {
        let directory = try PackagePaths.temporaryDirectory("splice")
        defer { try? FileManager.default.removeItem(at: directory) }
        // First pass: the sample footage annotated with the town's POIs (restart markers by default).
        let first = try Binary.run(
            ["annotate", PackagePaths.sample("footage/harbour.mjpeg")] + Self.harbour + [
                "--pois", PackagePaths.sample("pois/helsinki_center_osm_pois.geojson"),
                "--output", directory.appendingPathComponent("a-%02n.jpg").path,
            ])
        #expect(first.status == 0, "\(first.stderr)")
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
            let run = try Binary.run(
                ["annotate", clip.path] + Self.harbour + route + ["--route", routeFile, "--workers", "1"] + extra + [
                    "--output", directory.appendingPathComponent("\(name)-%02n.jpg").path,
                ])
            #expect(run.status == 0, "\(name): \(run.stderr)")
        }
        let spliced = try Self.clip(directory, prefix: "b-")
        let transcoded = try Self.clip(directory, prefix: "c-")
        let plain = try Self.clip(directory, prefix: "d-")
        #expect(spliced.count == 48 && transcoded.count == 48 && plain.count == 48)
        var copied = 0
        var total = 0
        var copiedPerFrame: [Int] = []
        for (index, frame) in spliced.enumerated() {
            let input = try #require(stage[index].withUnsafeBytes { JPEGRestartScan($0) })
            let output = try #require(frame.withUnsafeBytes { JPEGRestartScan($0) })
            // The camera's tables, the intervals the route leaves alone byte for byte.
            #expect(output.quantTables == input.quantTables)
            #expect(output.intervals.count == input.intervals.count)
            let same = zip(input.intervals, output.intervals).filter { stage[index][$0] == frame[$1] }.count
            copiedPerFrame.append(same)
            copied += same
            total += input.intervals.count
            #expect(frame != stage[index], "frame \(index + 1) is drawn on")
            let c = try #require(transcoded[index].withUnsafeBytes { JPEGRestartScan($0) })
            #expect(c.quantTables != input.quantTables, "--quality re-encodes at its quality")
            #expect(plain[index].withUnsafeBytes { JPEGRestartScan($0) } == nil, "--restart-interval 0: no markers")
            // What the frame shows is the same either way (the same tables when transcoded at 90).
            let decodedSplice = try JPEGDecoder().decode(frame)
            let decodedPlain = try JPEGDecoder().decode(plain[index])
            #expect(JPEGCodecDifference.mean(decodedSplice.planes[0], decodedPlain.planes[0]) < 1.5)
        }
        #expect(copied > 0 && copied < total, "\(copied) of \(total) intervals copied")
        // The route's ribbon touches over 70 % of the intervals: after the first frame measured
        // it, the worker decodes 30 frames whole at once (still with the camera's tables), then the
        // 32nd measures again. (An interval decoded and encoded again unchanged, with the same
        // tables, often comes out as the same bytes: frames decoded whole keep a few.)
        let measured = min(copiedPerFrame[0], copiedPerFrame[31])
        #expect(copiedPerFrame[1...30].allSatisfy { $0 < measured }, "\(copiedPerFrame)")
        print("splice: \(copied) of \(total) intervals copied byte for byte")
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
}
