import ARCompositor
import Foundation
import TestSupport
import Testing

@testable import ArcaptureCore
@testable import CaptureKit
@testable import Footage
@_spi(Testing) @testable import GeoAR
@testable import JPEGKit
@testable import Positioning

/// A view whose frames come from footage: the same rules as a camera view's (map data changed at
/// run time is drawn from the next frame; a map view draws the plan view; the minimap insets it).
@Suite("GeoAR view over footage", .serialized, .timeLimit(.minutes(5)))
struct FootageViewTests {
    /// A flat grey 640x480 JPEG, the footage's every frame.
    private static func greyJPEG() throws -> [UInt8] {
        Array(try JPEGEncoder().encode(YCbCrImage(width: 640, height: 480, subsampling: .s420)))
    }

    /// A footage view's configuration: `input` at 10 fps, posed at the fixed position looking
    /// north, written as `frame-%03n.jpg` and a sidecar into the fixtures' directory.
    private func configuration(_ fixtures: ViewFixtures, input: String, queue: DispatchQueue, minimap: Bool = false)
        -> GeoARConfiguration
    {
        GeoARConfiguration(
            source: .footage(
                path: input, clock: FootageClock(start: Date(timeIntervalSince1970: 1_700_000_000), framesPerSecond: 10)
            ),
            output: .footage(
                .files(OutputTemplate(pattern: fixtures.directory.appendingPathComponent("frame-%03n.jpg").path)),
                workers: 2),
            sidecar: fixtures.directory.appendingPathComponent("frames.jsonl").path,
            camera: CameraGeometry(horizontalFieldOfView: 60, heightAboveGround: 1.5),
            pose: LivePoseTracker.Options(orientation: .fixed(DeviceOrientation(heading: 0, pitch: 0, roll: 0))),
            minimap: minimap ? MapRenderer.Options(orientation: .northUp, metresAcross: 600) : nil,
            handlerQueue: queue, messages: .silent)
    }

    /// The frame files written so far.
    private func written(_ fixtures: ViewFixtures) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.directory.path)) ?? []
        return names.filter { $0.hasPrefix("frame-") && $0.hasSuffix(".jpg") }.count
    }

    @Test("map data changed while footage runs is drawn from the next frame read, as a camera view's")
    func mapDataChanges() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        // Footage that arrives as the test writes it: a FIFO, held open for writing (O_RDWR does
        // not wait for a reader) until the last frame.
        let input = fixtures.directory.appendingPathComponent("input.mjpeg").path
        try #require(mkfifo(input, 0o600) == 0)
        let writer = open(input, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        let frame = try Self.greyJPEG()
        func send(_ count: Int) {
            for _ in 0..<count { _ = frame.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } }
        }
        let session = ViewFixtures.session()
        let recorder = ViewRecorder()
        let view = GeoARView(
            frame: .full, session: session, configuration: configuration(fixtures, input: input, queue: recorder.queue))
        recorder.attach(to: view)
        view.present()
        try #require(recorder.wait { $0.phases.last == .waitingForLocationSource }, "\(recorder.snapshot.phases)")
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        send(4)
        #expect(waitUntil { written(fixtures) == 4 })
        session.remove(ids: ["b"])
        send(4)
        #expect(waitUntil { written(fixtures) == 8 })
        session.add([PointOfInterest(id: "c", name: "Charlie", latitude: 60.1712, longitude: 24.9395, altitude: 20)])
        send(4)
        close(writer)
        let summary = await view.ended()
        #expect(summary.footage?.progress.written == 12)
        #expect(summary.footage?.progress.annotated == 12)
        let ids = fixtures.records().map {
            (($0["pois"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
        }
        let expected = Array(repeating: ["a", "b"], count: 4) + Array(repeating: ["a"], count: 4)
        #expect(ids == expected + Array(repeating: ["a", "c"], count: 4))
        #expect(recorder.snapshot.phases.contains(.running))
        #expect(recorder.snapshot.phases.last == .stopped, "\(recorder.snapshot.phases)")
        #expect(recorder.snapshot.offQueue == 0)
    }

    @Test(
        "over footage, the minimap insets the plan view at the top right and a map view draws it over the whole frame")
    func mapViewAndMinimap() async throws {
        let source = try ViewFixtures()
        defer { source.remove() }
        let input = source.directory.appendingPathComponent("input.mjpeg")
        let frame = try Self.greyJPEG()
        try Data(frame + frame + frame).write(to: input)
        let inputPicture = try JPEGDecoder().decode(frame)
        var outputs: [String: ViewFixtures] = [:]
        defer { for fixtures in outputs.values { fixtures.remove() } }
        for name in ["plain", "minimap", "map", "map inset"] {
            let fixtures = try ViewFixtures()
            outputs[name] = fixtures
            let recorder = ViewRecorder()
            let configuration = configuration(
                fixtures, input: input.path, queue: recorder.queue, minimap: name == "minimap")
            let session = ViewFixtures.session()
            let view: GeoARView =
                name.hasPrefix("map")
                ? GeoMapView(
                    frame: name == "map" ? .full : ViewFrame(x: 0, y: 0.5, width: 0.5, height: 0.5), session: session,
                    configuration: configuration)
                : GeoARView(frame: .full, session: session, configuration: configuration)
            recorder.attach(to: view)
            view.present()
            try #require(recorder.wait { $0.phases.last == .waitingForLocationSource })
            view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
            let summary = await view.ended()
            #expect(summary.footage?.progress.written == 3, "\(name)")
        }
        let plain = try LumaDifference.decode(
            try #require(outputs["plain"]).directory.appendingPathComponent("frame-001.jpg"))
        let inset = try LumaDifference.decode(
            try #require(outputs["minimap"]).directory.appendingPathComponent("frame-001.jpg"))
        let map = try LumaDifference.decode(
            try #require(outputs["map"]).directory.appendingPathComponent("frame-001.jpg"))
        // The inset map view: its plan in the bottom-left quarter, the footage's grey picture around it.
        let mapInset = try LumaDifference.decode(
            try #require(outputs["map inset"]).directory.appendingPathComponent("frame-001.jpg"))
        var insetInside = 0
        var insetOutside = 0
        for y in 0..<480 {
            for x in 0..<640 where abs(Int(mapInset.planes[0][x, y]) - Int(inputPicture.planes[0][x, y])) > 8 {
                if x <= 321 && y >= 238 { insetInside += 1 } else { insetOutside += 1 }
            }
        }
        #expect(insetInside > 320 * 240 / 2, "the inset map covers its quarter (\(insetInside) pixels changed)")
        #expect(insetOutside == 0, "and the picture is all around it (\(insetOutside) pixels changed)")
        let minimap = LumaDifference(plain, inset)
        let mapChanged = LumaDifference(plain, map).total
        let side = LumaDifference.side
        #expect(minimap.inside > side * side / 4, "the inset covers its square (\(minimap.inside) pixels changed)")
        #expect(minimap.outside < 50, "and nothing else changed (\(minimap.outside))")
        #expect(mapChanged > 640 * 480 / 2, "the map view covers the frame (\(mapChanged) pixels changed)")
        // The AR frames list the POIs drawn; the map view's draws no AR markers.
        let arPOIs = try #require(outputs["plain"]).records().first?["pois"] as? [[String: Any]]
        #expect(arPOIs?.count == 2)
        let mapPOIs = try #require(outputs["map"]).records().first?["pois"] as? [[String: Any]]
        #expect(mapPOIs?.isEmpty ?? true)
    }

    @Test("over footage, select-center writes the POI nearest the centre back through the binding")
    func selectCenter() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let input = fixtures.directory.appendingPathComponent("input.mjpeg")
        let frame = try Self.greyJPEG()
        try Data(frame + frame).write(to: input)
        let recorder = ViewRecorder()
        var configuration = configuration(fixtures, input: input.path, queue: recorder.queue)
        configuration.selectsCenter = true
        let centre = GeoARBinding<Set<String>>([])
        let told = StreamCollector<Set<String>>()
        centre.onChange(on: recorder.queue) { told.append($0) }
        let view = recorder.attach(
            to: GeoAR(session: ViewFixtures.session(), configuration: configuration).selectedPOIs(centre)
        ).present()
        #expect(recorder.wait { $0.loaded == 1 })
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        _ = await view.ended()
        #expect(waitUntil { told.values == [["a"]] }, "told once, of the POI nearest the centre: \(told.values)")
        #expect(centre.value == ["a"])
        #expect(view.session.selectedPOIIDs == ["a"])
    }

    @Test("a footage view says where its frames' time comes from, as annotate does")
    func timeNote() async throws {
        let fixtures = try ViewFixtures()
        defer { fixtures.remove() }
        let input = fixtures.directory.appendingPathComponent("input.mjpeg")
        let frame = try Self.greyJPEG()
        try Data(frame + frame).write(to: input)
        let recorder = ViewRecorder()
        var configuration = configuration(fixtures, input: input.path, queue: recorder.queue)
        let notes = StreamCollector<String>()
        configuration.messages = PipelineMessages(
            note: { notes.append($0) }, warning: { _ in }, fileWritten: { _ in }, error: { _ in })
        let view = GeoARView(frame: .full, session: ViewFixtures.session(), configuration: configuration)
        recorder.attach(to: view)
        view.present()
        view.locationManager.locationSource = FixedLocationSource(try ViewFixtures.position)
        _ = await view.ended()
        // The clock the configuration gives: 1,700,000,000 s, 2023-11-14T22:13:20Z.
        #expect(
            notes.values.contains("time: the first frame at 2023-11-14T22:13:20.000Z from the start time given"),
            "\(notes.values)")
    }
}
