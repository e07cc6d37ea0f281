import ARCompositor
import CaptureKit
import Foundation
import JPEGKit
@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@testable import ArcaptureCore
@_spi(Testing) @testable import GeoAR
@testable import Positioning

/// The map view and the minimap: a plan view of the same session, drawn with the same compositor.
@Suite("GeoAR map view and minimap", .serialized, .timeLimit(.minutes(5)))
struct MapViewTests {
    /// Pixels close to `color` (within 24 levels in Y, Cb and Cr).
    private func count(_ color: RGBAColor, in image: YCbCrImage) -> Int {
        let (y, cb, cr) = color.ycbcr(in: .full)
        var found = 0
        for row in 0..<image.height {
            for column in 0..<image.width {
                let sample = (
                    Double(image.planes[0][column, row]), Double(image.planes[1][column / 2, row]),
                    Double(image.planes[2][column / 2, row])
                )
                if abs(sample.0 - y) < 24 && abs(sample.1 - cb) < 24 && abs(sample.2 - cr) < 24 { found += 1 }
            }
        }
        return found
    }

    @Test("--minimap draws a plan view inset at the top right, and nothing else of the frame changes")
    func minimapInset() async throws {
        let plain = try ViewFixtures()
        let inset = try ViewFixtures()
        defer {
            plain.remove()
            inset.remove()
        }
        for (fixtures, minimap) in [(plain, false), (inset, true)] {
            let (view, _) = try fixtures.running {
                if minimap { $0.minimap = MapRenderer.Options(orientation: .northUp, metresAcross: 600) }
            }
            #expect(fixtures.emit(sequence: 0))
            #expect(waitUntil { fixtures.records().count == 1 })
            await view.stop()
        }
        let difference = LumaDifference(
            try LumaDifference.decode(plain.directory.appendingPathComponent("frame-001.jpg")),
            try LumaDifference.decode(inset.directory.appendingPathComponent("frame-001.jpg")))
        let side = LumaDifference.side
        #expect(
            difference.inside > side * side / 4, "the inset covers its square (\(difference.inside) pixels changed)")
        #expect(difference.outside < 50, "and nothing else changed (\(difference.outside))")
    }

    @Test("an AR view and a map view on one session share the selection and the navigation")
    func sharedSession() async throws {
        let pair = try ViewPair()
        defer { pair.remove() }
        let (ar, map, arFixtures, mapFixtures) = (pair.ar, pair.map, pair.arFixtures, pair.mapFixtures)
        let (session, arNavigation, mapNavigation) = (pair.session, pair.arNavigation, pair.mapNavigation)
        #expect(ar.receivesUpdates && map.receivesUpdates, "one slot each")

        #expect(arFixtures.emit(sequence: 0))
        #expect(waitUntil { arFixtures.records().count == 1 })
        #expect(mapFixtures.emit(sequence: 0))
        #expect(waitUntil { mapFixtures.records().count == 1 })
        // Selected in the AR view (from code): highlighted in the map's next frame.
        ar.select(["a"])
        #expect(arFixtures.emit(sequence: 1))
        #expect(waitUntil { arFixtures.records().count == 2 })
        #expect(mapFixtures.emit(sequence: 1))
        #expect(waitUntil { mapFixtures.records().count == 2 })
        // The map view's navigation is the one the AR view follows.
        #expect(arNavigation.value != nil)
        #expect(mapNavigation.value == arNavigation.value)
        await ar.stop()
        await map.stop()

        let before = try LumaDifference.decode(mapFixtures.directory.appendingPathComponent("frame-001.jpg"))
        let after = try LumaDifference.decode(mapFixtures.directory.appendingPathComponent("frame-002.jpg"))
        let selected = OverlayStyle().selectedColor
        #expect(count(selected, in: before) < 5, "nothing selected on the map at first")
        #expect(count(selected, in: after) > 30, "the AR view's selection is highlighted on the map")
        #expect(session.selectedPOIIDs == ["a"])
        // Reset to nil once navigation stopped with the views.
        #expect(arNavigation.value == nil && mapNavigation.value == nil)
        let arInfo = try #require(arFixtures.records().last?["instruction"] as? String)
        #expect(arInfo.hasPrefix("Arrive in"), "\(arInfo)")
    }

    @Test(
        "a map view given part of the frame draws its plan there, the camera's picture around it; an AR view given part of it, or a frame outside the output, fails at present with the fix"
    )
    func mapViewFrame() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        // The bottom-right quarter: pixels 320–639 across, 240–479 down.
        let (map, _) = try fixtures.running(
            map: true,
            frame: ViewFrame(x: 0.5, y: 0.5, width: 0.5, height: 0.5))
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        await map.stop()
        let drawn = try LumaDifference.decode(fixtures.directory.appendingPathComponent("frame-001.jpg"))
        var inside = 0
        var outside = 0
        for y in 0..<480 {
            for x in 0..<640 where abs(Int(drawn.planes[0][x, y]) - 128) > 8 {
                if x >= 318 && y >= 238 { inside += 1 } else { outside += 1 }
            }
        }
        #expect(inside > 320 * 240 / 2, "the plan covers its quarter (\(inside) pixels not grey)")
        #expect(outside == 0, "and the camera's grey picture is all around it (\(outside) pixels not grey)")

        for (kind, frame, fix) in [
            ("AR", ViewFrame(x: 0, y: 0, width: 0.5, height: 1), "an AR view draws over the whole frame"),
            ("map", ViewFrame(x: 0.6, y: 0, width: 0.5, height: 1), "is not a part of the output frame"),
            ("map", ViewFrame(x: 0, y: 0, width: 0, height: 1), "is not a part of the output frame"),
        ] {
            let error = await fixtures.failureAtPresent(map: kind == "map", frame: frame)
            #expect(error?.description.contains(fix) == true, "\(String(describing: error))")
        }
    }

    /// The JPEGs a view wrote into `fixtures`' directory, in order.
    private func writtenFrames(_ fixtures: ViewFixtures) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: fixtures.directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("frame-") }
            .sorted {
                $0.lastPathComponent.count == $1.lastPathComponent.count
                    ? $0.lastPathComponent < $1.lastPathComponent
                    : $0.lastPathComponent.count < $1.lastPathComponent.count
            }
    }

    /// A map view's configuration change: a canvas of 320x240 at 25 fps, JPEGs into `fixtures`.
    private func canvas(_ fixtures: ViewFixtures) -> (inout GeoARConfiguration) -> Void {
        { configuration in
            configuration.source = .canvas(size: FrameSize(width: 320, height: 240), framesPerSecond: 25)
            configuration.output = .live(
                .files(OutputTemplate(pattern: fixtures.directory.appendingPathComponent("frame-%03n.jpg").path)),
                LiveCaptureSettings(devices: []), jsonLog: nil)
        }
    }

    @Test(
        "a map view with no camera draws the session alone, on a canvas of its own size and rate, sharing the AR view's selection and navigation live; a photo of it is the plan"
    )
    func canvasMapView() async throws {
        let pair = try ViewPair(mapChange: canvas)
        defer { pair.remove() }
        let (ar, map, arFixtures, mapFixtures) = (pair.ar, pair.map, pair.arFixtures, pair.mapFixtures)
        let (arNavigation, mapNavigation) = (pair.arNavigation, pair.mapNavigation)
        #expect(mapFixtures.factory.devices.isEmpty, "the map view opened no camera")

        // The canvas ticks by itself: frames come with no camera sending any.
        #expect(await eventually { mapFixtures.records().count >= 2 })
        #expect(arFixtures.emit(sequence: 0))
        #expect(await eventually { arFixtures.records().count == 1 })
        // Selected in the AR view: highlighted in the map's frames drawn after it.
        ar.select(["a"])
        let marked = mapFixtures.records().count
        #expect(await eventually { mapFixtures.records().count >= marked + 2 })
        #expect(await eventually { arNavigation.value != nil && mapNavigation.value == arNavigation.value })
        let photo = try await map.capturePhoto()
        await ar.stop()
        await map.stop()

        #expect(photo.size == FrameSize(width: 320, height: 240) && photo.isAnnotated, "\(photo.size)")
        #expect(photo.devicePath == "canvas")
        let frames = try writtenFrames(mapFixtures)
        let first = try LumaDifference.decode(try #require(frames.first))
        let last = try LumaDifference.decode(try #require(frames.last))
        #expect(first.width == 320 && first.height == 240, "the canvas's size, not the camera's")
        let selected = OverlayStyle().selectedColor
        #expect(count(selected, in: first) < 5, "nothing selected on the map at first")
        #expect(count(selected, in: last) > 10, "the AR view's selection is highlighted on the map")
        let photographed = try JPEGDecoder().decode(photo.data)
        #expect(count(selected, in: photographed) > 10, "the photo is the map as drawn")
        #expect(mapNavigation.value == nil, "reset when the views stopped")
    }

    @Test(
        "a canvas is refused at present, with the fix, for an AR view, a footage output, cameras to switch to, and a size it cannot have"
    )
    func canvasRefused() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let size = FrameSize(width: 320, height: 240)
        let cases: [(map: Bool, change: (inout GeoARConfiguration) -> Void, fix: String)] = [
            (false, canvas(fixtures), "a canvas has none"),
            (
                true,
                {
                    $0.source = .canvas(size: size, framesPerSecond: 10)
                    $0.output = .footage(.mjpegStream, workers: 1)
                }, "a canvas view writes live outputs"
            ),
            (
                true,
                {
                    $0.source = .canvas(size: size, framesPerSecond: 10)
                    $0.output = fixtures.liveOutput(devices: ["/dev/video0"])
                }, "a canvas has no camera to switch to"
            ),
            (
                true,
                {
                    $0.source = .canvas(size: FrameSize(width: 321, height: 240), framesPerSecond: 10)
                    $0.output = .none
                },
                "its width even"
            ),
        ]
        for (map, change, fix) in cases {
            let error = await fixtures.failureAtPresent(map: map, change: change)
            #expect(error?.description.contains(fix) == true, "\(String(describing: error))")
        }
        #expect(fixtures.factory.devices.isEmpty)
    }
}
