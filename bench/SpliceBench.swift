import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation
import JPEGKit

/// `arcapture-bench --splice`: annotating 4:2:2 MJPEG that has a restart marker every MCU row (as
/// many UVC webcams send it) by splicing, against limit (a), libjpeg-turbo decoding and encoding
/// the same frame whole, measured in the same run; and what the restart markers cost in size.
enum SpliceBench {
    /// A `width` x `height` 4:2:2 frame of the sample street photo, scaled (so it compresses like
    /// camera footage).
    static func picture(width: Int, height: Int) throws -> YCbCrImage {
        let photo = try JPEGDecoder().decode(
            Array(try Data(contentsOf: URL(fileURLWithPath: "samples/frames/lund-640x480.jpg"))))
        var image = YCbCrImage(width: width, height: height, subsampling: .s422)
        for y in 0..<height {
            let row = min(y * 480 / height, 479)
            for x in 0..<width { image.planes[0][x, y] = photo.planes[0][x * 640 / width, row] }
            for index in 1...2 {
                for x in 0..<(width / 2) { image.planes[index][x, y] = photo.planes[index][x * 320 / (width / 2), row] }
            }
        }
        return image
    }

    /// One frame spliced with a scene's overlay, and with nothing drawn on.
    struct Splice {
        /// Median seconds a frame.
        var time: Double
        /// Median seconds of each phase: marking, decoding, drawing, finishing.
        var phaseTimes: [Double]
        /// Median seconds with nothing drawn (its structure read, every interval's Huffman codes
        /// walked, the frame copied): the floor of splicing.
        var untouched: Double
        var mcus: Int
        var rows: Int

        /// The phases and the floor, for a line of the report.
        func phases(limit: Double) -> String {
            let split = phaseTimes.map { String(format: "%.2f", $0 * 1000) }
            return "marking drawing \(split[0]), decoding the marked MCUs (index, decode) \(split[1]), drawing "
                + "\(split[2]), finishing (walk, encode, write) \(split[3]); nothing drawn "
                + String(format: "%.2f (%.2fx limit (a))", untouched * 1000, limit / untouched)
        }
    }

    /// Splices `frame` with `scene`'s overlay as GeoAR's SplicedDrawing does it: drawn once to mark
    /// what the overlay touches, decoded at once, drawn again on the samples.
    static func splice(_ frame: [UInt8], scene: AnnotationScene, splicer: JPEGSplicer) throws -> Splice {
        var canvas = YCbCrImage(width: 16, height: 16, subsampling: .s422)
        var touched = (mcus: 0, rows: 0)
        var phases: [[Double]] = Array(repeating: [], count: 4)
        var clock = ContinuousClock.now
        func lap(_ phase: Int) {
            let now = ContinuousClock.now
            phases[phase].append(clock.duration(to: now).seconds)
            clock = now
        }
        let time = try median(repetitions: 30) {
            clock = ContinuousClock.now
            guard splicer.begin(frame, canvas: &canvas) else { throw SceneError(what: "a spliceable frame") }
            scene.annotator.compositor.willChange = { rows, columns, _ in splicer.mark(rows: rows, columns: columns) }
            scene.draw(on: &canvas)
            lap(0)
            splicer.prepareMarked(in: &canvas)
            guard splicer.refusal == nil else { throw SceneError(what: "a frame spliced: \(splicer.refusal ?? "")") }
            lap(1)
            scene.annotator.compositor.willChange = { rows, columns, image in
                splicer.prepare(rows: rows, columns: columns, in: &image)
            }
            scene.annotator.reusesLastLayout = true
            scene.draw(on: &canvas)
            scene.annotator.reusesLastLayout = false
            scene.annotator.compositor.willChange = nil
            lap(2)
            _ = try splicer.finish(&canvas)
            lap(3)
            touched = (splicer.touchedMCUs.count, splicer.touchedMCURows.count)
        }
        let untouched = try median(repetitions: 30) {
            guard splicer.begin(frame, canvas: &canvas) else { throw SceneError(what: "a spliceable frame") }
            _ = try splicer.finish(&canvas)
        }
        return Splice(
            time: time, phaseTimes: phases.map(middle), untouched: untouched, mcus: touched.mcus, rows: touched.rows)
    }

    static func report() throws {
        print("arcapture-bench --splice (\(ProcessInfo.processInfo.activeProcessorCount) cores; medians; 1 thread)")
        let encoder = try JPEGEncoder()
        let decoder = try JPEGDecoder()
        let splicer = try JPEGSplicer()
        for (width, height) in [(1280, 720), (1920, 1080)] {
            let image = try picture(width: width, height: height)
            let plain = try encoder.encode(image, quality: 90)
            let marked = try encoder.encode(image, quality: 90, restartRows: 1)
            var planes = YCbCrImage(width: 16, height: 16, subsampling: .s422)
            let limit = try median(repetitions: 40) {
                try plain.withUnsafeBytes { try decoder.decode($0, into: &planes) }
                _ = try encoder.encode(planes, quality: 90)
            }
            print(
                "  \(width)x\(height) 4:2:2 q90: limit (a) decode + encode \(String(format: "%.2f", limit * 1000)) ms; "
                    + String(
                        format: "restart marker every MCU row: %d bytes against %d (+%.2f %%, target within 1 %%)",
                        marked.count, plain.count, Double(marked.count - plain.count) / Double(plain.count) * 100))
            let overlays: [(String, Set<OverlayLayer>)] = [
                (
                    "20 POIs + panel + banner, no route",
                    Set(OverlayLayer.allCases).subtracting([.route, .manoeuvreArrow])
                ),
                ("the same with the route's ribbon  ", Set(OverlayLayer.allCases)),
            ]
            for (name, layers) in overlays {
                let scene = try AnnotationScene(width: width, height: height, layers: layers)
                // Today's full path: decode, draw, encode (with our restart markers).
                let full = try median(repetitions: 30) {
                    try marked.withUnsafeBytes { try decoder.decode($0, into: &planes) }
                    scene.draw(on: &planes)
                    _ = try encoder.encode(planes, quality: 90, restartRows: 1)
                }
                let withMarkers = try splice(marked, scene: scene, splicer: splicer)
                let withoutMarkers = try splice(plain, scene: scene, splicer: splicer)
                let overlay = median(repetitions: 30) { scene.draw(on: &planes) }
                let rows = (height + 7) / 8
                print(
                    "    \(name): overlay alone \(String(format: "%.2f", overlay * 1000)) ms; full \(String(format: "%.2f", full * 1000)) ms, spliced "
                        + String(
                            format:
                                "%.2f ms (%d of %d MCUs coded again, in %d of %d MCU rows): spliced %.2fx limit (a) (target %.1f), %.2fx the full path",
                            withMarkers.time * 1000, withMarkers.mcus, rows * ((width + 15) / 16), withMarkers.rows,
                            rows, limit / withMarkers.time, layers.contains(.route) ? 1.5 : 2.5,
                            full / withMarkers.time))
                print("      where the time goes (medians, ms): \(withMarkers.phases(limit: limit))")
                print(
                    "      the frame without restart markers (one interval): "
                        + String(
                            format: "spliced %.2f ms (%d MCUs coded again): %.2fx limit (a), %.2fx the full path",
                            withoutMarkers.time * 1000, withoutMarkers.mcus, limit / withoutMarkers.time,
                            full / withoutMarkers.time))
                print("      where the time goes (medians, ms): \(withoutMarkers.phases(limit: limit))")
                if width == 1920 {
                    // The live path at 1080p30 (scripted camera, GeoAR view, MJPEG stream out),
                    // with this row's overlay (the route in the session's map data or not), from a
                    // camera with restart markers and from one without.
                    for (camera, bytes) in [("restart markers", marked), ("no restart markers", plain)] {
                        for splices in [true, false] {
                            let live = try LiveBench.run(
                                scene: scene, pixelFormat: .mjpeg, width: 1920, height: 1080, bytes: bytes,
                                frames: 150, splices: splices, withRoute: layers.contains(.route))
                            print(
                                "      live 1920x1080 at 30 fps, \(camera), \(splices ? "spliced" : "--no-splice"): CPU "
                                    + String(format: "%.2f ms a frame, all threads", live.cpuPerFrame * 1000)
                                    + " (\(live.annotated)/\(live.frames) annotated, \(live.dropped) dropped)")
                        }
                    }
                }
            }
        }
    }
}
