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

/// Seed 001 through the view: a still of what the view shows (``GeoARView/capturePhoto(quality:)``)
/// and a digital zoom (``GeoARView/zoom(to:)``), clamped and kept across a camera switch, with
/// labels where their places are at every zoom.
@Suite("GeoAR view: photos and zoom on the scripted camera", .serialized, .timeLimit(.minutes(5)))
struct ViewPhotoTests {
    /// A photo asked for, known to be waiting before the test sends the frame it should get.
    private func askForPhoto(_ view: GeoARView, quality: Int = 90, waiting: Int = 1) async throws -> Task<
        ViewPhoto, any Error
    > {
        let task = Task { try await view.capturePhoto(quality: quality) }
        try #require(await eventually { view.photos.waiting == waiting }, "the request waits for a frame")
        return task
    }

    /// The photo once answered; cancelled (and so failing) if no frame answers it in time, rather
    /// than waiting for the suite's limit.
    private func answered(_ task: Task<ViewPhoto, any Error>, by view: GeoARView) async throws -> ViewPhoto {
        if !(await eventually { !view.photos.isWaiting }) {
            Issue.record("no frame answered the photo")
            task.cancel()
        }
        return try await task.value
    }

    /// A grey YUYV frame with a white vertical band in columns `band` (the same in every row).
    private static func bandedFrame(_ band: Range<Int>) -> [UInt8] {
        var bytes = ViewFixtures.greyFrame
        for y in 0..<480 {
            for x in band { bytes[(y * 640 + x) * 2] = 235 }
        }
        return bytes
    }

    /// Where the sidecar record says POI `id` was drawn.
    private func drawnAt(_ record: [String: Any], _ id: String) throws -> (u: Double, v: Double) {
        let marker = try #require((record["pois"] as? [[String: Any]])?.first { $0["id"] as? String == id })
        return (try #require(marker["u"] as? Double), try #require(marker["v"] as? Double))
    }

    @Test("a photo is the next frame as the view draws it, with its pose; several requests share the frame")
    func photoOfTheNextFrame() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let (view, _) = try fixtures.running()
        let first = try await askForPhoto(view)
        let second = try await askForPhoto(view, quality: 50, waiting: 2)
        #expect(fixtures.emit(sequence: 7))
        let photo = try await answered(first, by: view)
        let other = try await answered(second, by: view)
        #expect(photo.sequence == 7 && other.sequence == 7)
        #expect(photo.isAnnotated && photo.unannotatedReason == nil)
        #expect(abs((photo.pose?.pose.latitude ?? 0) - 60.17) < 1e-9)
        #expect(photo.zoomFactor == 1 && photo.devicePath == "/dev/video-scripted")
        #expect(photo.size == FrameSize(width: 640, height: 480))
        #expect(other.data.count < photo.data.count, "quality 50 is a smaller file than 90")
        // The photo shows what the view wrote: its picture is the written frame's, overlay and all.
        #expect(waitUntil { fixtures.records().count == 1 })
        await view.stop()
        let written = try LumaDifference.decode(fixtures.directory.appendingPathComponent("frame-001.jpg"))
        let still = try JPEGDecoder().decode(photo.data)
        let plain = try JPEGDecoder().decode(
            try JPEGEncoder().encode(YCbCrImage(width: 640, height: 480, subsampling: .s422)))
        #expect(LumaDifference(written, still).total < 200, "the photo is the frame written")
        #expect(LumaDifference(plain, still).total > 500, "and has the overlay on it")
    }

    @Test("a time-lapse's interval does not delay a photo: it takes a frame the outputs do not write")
    func photoBetweenTimeLapseFrames() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let (view, _) = try fixtures.running { $0.output = fixtures.liveOutput(every: .seconds(3600)) }
        #expect(fixtures.emit(sequence: 0))
        #expect(waitUntil { fixtures.records().count == 1 })
        let task = try await askForPhoto(view)
        #expect(fixtures.emit(sequence: 1))
        let photo = try await answered(task, by: view)
        #expect(photo.sequence == 1 && photo.isAnnotated)
        await view.stop()
        let summary = await view.ended()
        #expect(summary.live?.written == 1, "the photo's frame was not written")
        #expect(fixtures.records().count == 1)
    }

    @Test("a photo without a position is the picture alone and says why; misuse and endings are errors, not waits")
    func photoErrors() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let recorder = ViewRecorder()
        let view = GeoARView(
            frame: .full, session: ARSession(mapData: MapData()),
            configuration: fixtures.configuration(queue: recorder.queue))
        recorder.attach(to: view)
        await #expect(throws: ViewPhotoError.notPresented) { try await view.capturePhoto() }
        await #expect(throws: ViewPhotoError.invalidQuality(0)) { try await view.capturePhoto(quality: 0) }
        view.present()
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        #expect(recorder.wait { $0.phases.last == .running })
        let bare = try await askForPhoto(view)
        #expect(fixtures.emit(sequence: 0))
        let photo = try await answered(bare, by: view)
        #expect(!photo.isAnnotated)
        #expect(
            photo.unannotatedReason?.contains("nothing to draw") == true,
            "\(String(describing: photo.unannotatedReason))")
        #expect(try JPEGDecoder().decode(photo.data).width == 640)
        // Cancelled while it waits: answered at once, and the next request still gets a frame.
        let cancelled = try await askForPhoto(view)
        cancelled.cancel()
        await #expect(throws: ViewPhotoError.cancelled) { try await cancelled.value }
        #expect(!view.photos.isWaiting)
        // Waiting when the view stops.
        let pending = try await askForPhoto(view)
        await view.stop()
        await #expect(throws: ViewPhotoError.viewEnded) { try await pending.value }
        await #expect(throws: ViewPhotoError.viewEnded) { try await view.capturePhoto() }
        // A footage view has no camera frames to take.
        var footage = fixtures.configuration(queue: recorder.queue)
        footage.source = .footage(
            path: fixtures.directory.appendingPathComponent("in.y4m").path, timing: FootageTiming())
        let footageView = GeoARView(frame: .full, session: ViewFixtures.session(), configuration: footage)
        await #expect(throws: ViewPhotoError.notCameraView) { try await footageView.capturePhoto() }
    }

    @Test("zoom is clamped to 1–8, and a NaN changes nothing")
    func zoomIsClamped() throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let view = GeoARView(
            frame: .full, session: ViewFixtures.session(),
            configuration: fixtures.configuration(queue: DispatchQueue(label: "zoom-clamp")))
        #expect(view.zoomFactor == 1)
        #expect(view.zoom(to: 20) == 8)
        #expect(view.zoom(to: .nan) == 8)
        #expect(view.zoom(to: 0.5) == 1)
        #expect(view.zoom(to: 2.5) == 2.5 && view.zoomFactor == 2.5)
    }

    @Test("zoomed in, the picture's middle fills the frame and each label moves with its place, across a camera switch")
    func zoomMovesPictureAndLabels() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let (view, _) = try fixtures.running {
            $0.output = fixtures.liveOutput(devices: ["/dev/video-scripted", "/dev/video-second"])
        }
        // A band at columns 240–249: zoomed by 2 about x = 320 it spans 160–179.
        let banded = Self.bandedFrame(240..<250)
        #expect(fixtures.emit(sequence: 0, banded))
        #expect(waitUntil { fixtures.records().count == 1 })
        #expect(view.zoom(to: 2) == 2)
        let photo = try await askForPhoto(view)
        #expect(fixtures.emit(sequence: 1, banded))
        #expect(try await answered(photo, by: view).zoomFactor == 2)
        #expect(waitUntil { fixtures.records().count == 2 })
        view.switchToNextCamera()
        #expect(waitUntil { fixtures.factory.devices.count == 2 && fixtures.factory.latest?.isStreaming == true })
        #expect(fixtures.emit(sequence: 0, banded))
        #expect(waitUntil { fixtures.records().count == 3 })
        #expect(view.zoomFactor == 2, "kept across the switch")
        await view.stop()
        let records = fixtures.records()
        for id in ["a", "b"] {
            let whole = try drawnAt(records[0], id)
            for zoomed in [try drawnAt(records[1], id), try drawnAt(records[2], id)] {
                #expect(abs(zoomed.u - ((whole.u - 320) * 2 + 320)) < 0.01, "\(id): \(whole) → \(zoomed)")
                #expect(abs(zoomed.v - ((whole.v - 240) * 2 + 240)) < 0.01, "\(id): \(whole) → \(zoomed)")
            }
        }
        // Row 8 is above every label: the band is where the zoom puts it, in both cameras' frames.
        for name in ["frame-001.jpg", "frame-002.jpg", "frame-003.jpg"] {
            let luma = try LumaDifference.decode(fixtures.directory.appendingPathComponent(name)).planes[0]
            let zoomed = name != "frame-001.jpg"
            let bright = zoomed ? 163..<177 : 242..<248
            let grey = zoomed ? 242..<248 : 163..<177
            #expect(bright.allSatisfy { luma[$0, 8] > 200 }, "\(name): the band at \(bright)")
            #expect(grey.allSatisfy { abs(Int(luma[$0, 8]) - 128) < 10 }, "\(name): grey at \(grey)")
        }
        let summary = await view.ended()
        #expect(summary.live?.annotated == 3)
    }

    @Test("zoomed in with nothing to draw, frames are still zoomed, counted without a pose")
    func zoomWithoutOverlay() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let (view, _) = try fixtures.running(session: ARSession(mapData: MapData()))
        view.zoom(to: 2)
        #expect(fixtures.emit(sequence: 0, Self.bandedFrame(240..<250)))
        #expect(waitUntil { fixtures.records().count == 1 })
        await view.stop()
        let luma = try LumaDifference.decode(fixtures.directory.appendingPathComponent("frame-001.jpg")).planes[0]
        #expect((163..<177).allSatisfy { luma[$0, 240] > 200 }, "the band moved out to 160–179")
        #expect((242..<248).allSatisfy { abs(Int(luma[$0, 240]) - 128) < 10 })
        let summary = await view.ended()
        #expect(summary.live?.annotated == 0 && summary.live?.withoutPose == 1)
    }
}
