import ARCompositor
import CaptureKit
import Foundation
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
        let arFixtures = try ViewFixtures()
        let mapFixtures = try ViewFixtures()
        defer {
            arFixtures.remove()
            mapFixtures.remove()
        }
        // A route north from the camera, past the POIs: the AR view follows it.
        let session = try ViewFixtures.navigatingSession()
        let (ar, _) = try arFixtures.running(session: session)
        let (map, _) = try mapFixtures.running(session: session, map: true)
        #expect(ar.receivesUpdates && map.receivesUpdates, "one slot each")
        let arNavigation = GeoARBinding<NavigationInfo?>(nil)
        let mapNavigation = GeoARBinding<NavigationInfo?>(nil)
        ar.navigationInfo(arNavigation)
        map.navigationInfo(mapNavigation)

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
            let recorder = ViewRecorder()
            let configuration = fixtures.configuration(queue: recorder.queue)
            let session = ViewFixtures.session()
            let view: GeoARView =
                kind == "map"
                ? GeoMapView(frame: frame, session: session, configuration: configuration)
                : GeoARView(frame: frame, session: session, configuration: configuration)
            recorder.attach(to: view)
            view.present()
            // A view that is wrongly accepted waits for a location source: end it, and fail below.
            let settled = recorder.wait { phases in
                if case .failed = phases.phases.last { return true }
                return phases.phases.last == .waitingForLocationSource
            }
            #expect(settled, "\(recorder.snapshot.phases)")
            await view.stop()
            let summary = await view.ended()
            guard case .failed(let error) = summary.ending else {
                Issue.record("\(kind) \(frame): ended \(summary.ending), not failed")
                continue
            }
            #expect(error.description.contains(fix), "\(error)")
        }
    }
}
