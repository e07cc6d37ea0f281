import ARCompositor
import Foundation
@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import CaptureKit
@_spi(Testing) @testable import GeoAR
@testable import JPEGKit
@testable import Positioning

/// A live camera's MJPEG is spliced on its way to files: with restart markers, the intervals the
/// overlay leaves alone are the camera's bytes, at the camera's quality; without, the MCUs it
/// leaves alone are the camera's; with splicing off, frames are encoded whole (with our restart
/// markers).
@Suite("Live capture splices MJPEG")
struct LiveSplicingTests {
    /// A textured 640x480 4:2:2 frame, with restart markers every MCU row or none.
    static func frame(restartRows: Int) throws -> [UInt8] {
        var image = YCbCrImage(width: 640, height: 480, subsampling: .s422)
        for (index, plane) in image.planes.enumerated() {
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    image.planes[index][x, y] = UInt8(truncatingIfNeeded: (x * (2 + index) + y * 3 + (x * y) % 23) / 2)
                }
            }
        }
        return try JPEGEncoder().encode(image, quality: 75, restartRows: restartRows)
    }

    func run(splices: Bool) async throws -> (
        inputs: [[UInt8]], outputs: [[UInt8]], counts: LiveCapture.Counts?, state: SpliceCount?
    ) {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let recorder = ViewRecorder()
        var configuration = fixtures.configuration(queue: recorder.queue)
        configuration.source = .camera(
            CaptureConfiguration(
                devicePath: "/dev/video-scripted",
                format: FormatRequest(pixelFormat: .mjpeg, size: FrameSize(width: 640, height: 480))))
        configuration.splices = splices
        let view = GeoARView(frame: .full, session: ViewFixtures.session(), configuration: configuration)
        recorder.attach(to: view)
        view.present()
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running }, "\(recorder.snapshot.phases)")
        let inputs = [try Self.frame(restartRows: 1), try Self.frame(restartRows: 0)]
        for (sequence, bytes) in inputs.enumerated() {
            #expect(fixtures.emit(sequence: UInt32(sequence), bytes))
            #expect(waitUntil { fixtures.records().count == sequence + 1 })
        }
        // What the view counts of them while it runs (what `serve`'s /state shows).
        let frames = view.liveCounts?.splicing
        await view.stop()
        let summary = await view.ended()
        let outputs = try (1...2).map { number in
            [UInt8](
                try Data(
                    contentsOf: fixtures.directory.appendingPathComponent(String(format: "frame-%03d.jpg", number))))
        }
        return (inputs, outputs, summary.live, frames)
    }

    @Test("spliced: the camera's tables and untouched intervals; without markers, its untouched MCUs")
    func splicesLiveFrames() async throws {
        let (inputs, outputs, counts, state) = try await run(splices: true)
        #expect(counts?.annotated == 2)
        // Both counted as spliced, for the summary and for /state.
        #expect(counts?.splicing.spliced == 2 && counts?.splicing.notSpliced == 0, "\(String(describing: counts))")
        #expect(state?.spliced == 2 && state?.notSpliced == 0, "\(String(describing: state))")
        #expect(state?.firstReason == nil)
        let input = try #require(inputs[0].withUnsafeBytes { JPEGRestartScan($0) })
        let spliced = try #require(outputs[0].withUnsafeBytes { JPEGRestartScan($0) })
        #expect(spliced.quantTables == input.quantTables, "the camera's quality (75), not --quality's 90")
        let copied = zip(input.intervals, spliced.intervals).filter { inputs[0][$0] == outputs[0][$1] }.count
        #expect(copied > 0 && copied < input.intervals.count, "\(copied) of \(input.intervals.count) copied")
        // The frame without markers: spliced too, as one interval. The camera's quality and no
        // markers added; every 4:2:2 MCU (16x8) the overlay leaves alone decodes to the camera's
        // samples exactly, and most of them are left alone.
        let plain = try #require(outputs[1].withUnsafeBytes { JPEGRestartScan($0) })
        #expect(plain.quantTables == input.quantTables && !plain.hasRestartMarkers)
        let camera = try JPEGDecoder().decode(inputs[1])
        let b = try JPEGDecoder().decode(outputs[1])
        var kept = 0
        for mcuY in 0..<60 {
            for mcuX in 0..<40 {
                let same = (0..<8).allSatisfy { line in
                    let y = mcuY * 8 + line
                    return (0..<16).allSatisfy { b.planes[0][mcuX * 16 + $0, y] == camera.planes[0][mcuX * 16 + $0, y] }
                        && (1...2).allSatisfy { plane in
                            (0..<8).allSatisfy {
                                b.planes[plane][mcuX * 8 + $0, y] == camera.planes[plane][mcuX * 8 + $0, y]
                            }
                        }
                }
                if same { kept += 1 }
            }
        }
        #expect(kept > 2400 / 2 && kept < 2400, "\(kept) of 2400 MCUs the camera's")
        // The overlay is the same either way.
        let a = try JPEGDecoder().decode(outputs[0])
        var differing = 0
        for y in 0..<480 {
            for x in 0..<640 where abs(Int(a.planes[0][x, y]) - Int(b.planes[0][x, y])) > 24 { differing += 1 }
        }
        #expect(differing < 640 * 480 / 200, "\(differing) luma samples far apart")
    }

    @Test("with splicing off, a frame with restart markers is encoded whole at the configured quality")
    func splicingOff() async throws {
        let (inputs, outputs, counts, state) = try await run(splices: false)
        #expect(counts?.annotated == 2)
        // Splicing off: neither spliced nor counted as refused.
        #expect(counts?.splicing == SpliceCount(), "\(String(describing: counts))")
        #expect(state?.spliced == 0 && state?.notSpliced == 0, "\(String(describing: state))")
        let input = try #require(inputs[0].withUnsafeBytes { JPEGRestartScan($0) })
        let output = try #require(outputs[0].withUnsafeBytes { JPEGRestartScan($0) })
        #expect(output.quantTables != input.quantTables)
        #expect(zip(input.intervals, output.intervals).allSatisfy { inputs[0][$0] != outputs[0][$1] })
    }
}
