import ARCompositor
import CaptureKit
import Foundation
@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@_spi(Testing) @testable import GeoAR
@testable import Positioning

/// What the view tests share: a scripted camera, a session with two POIs north of a fixed
/// position, and a configuration whose camera sessions and authorization come from the fake.
struct ViewFixtures {
    /// Where the camera stands (a fixed mount), looking north, level.
    static var position: GeodeticCoordinate {
        get throws { try #require(GeodeticCoordinate(latitude: 60.17, longitude: 24.94, altitude: 20)) }
    }
    /// Two POIs 200 m north of it, one slightly east: both in view, "a" nearer the centre.
    static let pointsOfInterest = [
        PointOfInterest(id: "a", name: "Alpha", latitude: 60.171796, longitude: 24.94, altitude: 20),
        PointOfInterest(id: "b", name: "Bravo", latitude: 60.171796, longitude: 24.941, altitude: 20),
    ]

    let factory = ScriptedDeviceFactory()
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("geoar-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// A session over the two POIs.
    static func session() -> ARSession { ARSession(mapData: MapData(pointsOfInterest: pointsOfInterest)) }

    /// A session over the two POIs with a route north from the camera, past them: every AR view
    /// on it follows the route.
    static func navigatingSession() throws -> ARSession {
        let start = try position
        let route = try #require(
            NavigationRoute(
                GeoRoute(
                    id: "north",
                    vertices: [
                        GeoRoute.Vertex(latitude: start.latitude - 0.0005, longitude: start.longitude),
                        GeoRoute.Vertex(latitude: start.latitude + 0.003, longitude: start.longitude),
                    ])))
        return ARSession(mapData: MapData(pointsOfInterest: pointsOfInterest, route: route))
    }

    /// A camera view's configuration writing JPEGs (`frame-%03n.jpg`) and a sidecar into the
    /// directory, with handlers on `queue`.
    func configuration(queue: DispatchQueue, selectsCenter: Bool = false, authorized: Bool = true)
        -> GeoARConfiguration
    {
        var configuration = GeoARConfiguration(
            source: .camera(
                CaptureConfiguration(devicePath: "/dev/video-scripted")),
            output: liveOutput(),
            sidecar: directory.appendingPathComponent("frames.jsonl").path,
            camera: CameraGeometry(horizontalFieldOfView: 60, heightAboveGround: 1.5),
            pose: LivePoseTracker.Options(orientation: .fixed(DeviceOrientation(heading: 0, pitch: 0, roll: 0))),
            selectsCenter: selectsCenter, handlerQueue: queue, messages: .silent)
        let factory = self.factory
        configuration.cameraHooks = CameraHooks(
            makeSession: { factory.makeSession() },
            authorize: { path in
                authorized
                    ? Authorization(path: path, status: .authorized, problem: nil)
                    : Authorization(
                        path: path, status: .denied,
                        problem: .notAVideoDevice(path: path, detail: "denied by the test"))
            },
            requestAccess: { _, _ in authorized })
        return configuration
    }

    /// A camera view on `session` (a ``GeoMapView`` with `map`) given `frame`, its configuration
    /// changed by `change`, its handlers recorded, presented, and running at ``position``.
    func running(
        session: ARSession = ViewFixtures.session(), map: Bool = false, frame: ViewFrame = .full,
        change: (inout GeoARConfiguration) -> Void = { _ in }
    ) throws -> (GeoARView, ViewRecorder) {
        let (view, recorder) = presented(session: session, map: map, frame: frame, change: change)
        try #require(recorder.wait { $0.phases.last == .waitingForLocationSource }, "\(recorder.snapshot.phases)")
        view.locationManager.locationSource = FixedLocationSource(try Self.position)
        try #require(recorder.wait { $0.phases.last == .running }, "\(recorder.snapshot.phases)")
        return (view, recorder)
    }

    /// A camera view on `session` (a ``GeoMapView`` with `map`) given `frame`, its configuration
    /// changed by `change`, its handlers recorded, presented.
    func presented(
        session: ARSession, map: Bool, frame: ViewFrame, change: (inout GeoARConfiguration) -> Void
    ) -> (GeoARView, ViewRecorder) {
        let recorder = ViewRecorder()
        var configuration = configuration(queue: recorder.queue)
        change(&configuration)
        let view: GeoARView =
            map
            ? GeoMapView(frame: frame, session: session, configuration: configuration)
            : GeoARView(frame: frame, session: session, configuration: configuration)
        recorder.attach(to: view)
        view.present()
        return (view, recorder)
    }

    /// The error a view on a new session (a ``GeoMapView`` with `map`), given `frame` and this
    /// fixture's configuration changed by `change`, failed with when presented; nil, recorded as
    /// an issue, when it was accepted (it is then stopped rather than left waiting forever).
    func failureAtPresent(
        map: Bool, frame: ViewFrame = .full, change: (inout GeoARConfiguration) -> Void = { _ in }
    ) async -> GeoARError? {
        let (view, recorder) = presented(session: Self.session(), map: map, frame: frame, change: change)
        // A view that is wrongly accepted waits for a location source: end it, and fail below.
        let settled = recorder.wait { phases in
            if case .failed = phases.phases.last { return true }
            return phases.phases.last == .waitingForLocationSource
        }
        #expect(settled, "\(recorder.snapshot.phases)")
        await view.stop()
        let summary = await view.ended()
        guard case .failed(let error) = summary.ending else {
            Issue.record("\(map ? "map" : "AR") view, \(frame): ended \(summary.ending), not failed")
            return nil
        }
        return error
    }

    /// JPEGs (`frame-%03n.jpg`) into the directory, from `devices` (switched between in order),
    /// `every` apart for a time-lapse.
    func liveOutput(devices: [String] = ["/dev/video-scripted"], every: Duration? = nil) -> GeoARConfiguration.Output {
        .live(
            .files(OutputTemplate(pattern: directory.appendingPathComponent("frame-%03n.jpg").path)),
            LiveCaptureSettings(devices: devices, every: every), jsonLog: nil)
    }

    /// A flat grey 640x480 YUYV frame (the scripted camera's default format).
    static let greyFrame = [UInt8](repeating: 128, count: 640 * 480 * 2)

    /// Emits a frame stamped now, when the camera has a buffer for it; false if it never did.
    func emit(sequence: UInt32, _ bytes: [UInt8] = ViewFixtures.greyFrame) -> Bool {
        waitUntil {
            factory.latest?.emit(bytes, sequence: sequence, stampedNow: true) == true
        }
    }

    /// The sidecar's records.
    func records() -> [[String: Any]] {
        let path = directory.appendingPathComponent("frames.jsonl").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }
}
