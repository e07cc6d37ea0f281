import Foundation
import Testing

@testable import ARCompositor

/// Hand-checked behaviour: signs of pitch and roll, the ground altitude, and routes through the
/// near plane.
@Suite("Projector behaviour")
struct ProjectorTests {
    static let camera = CameraModel(horizontalFieldOfView: 90, width: 1000, height: 600)  // fx = 500
    static let origin = (latitude: 60.17, longitude: 24.94, altitude: 20.0)

    static func projector(heading: Double = 0, pitch: Double = 0, roll: Double = 0, ground: Double = 18.5) -> Projector
    {
        Projector(
            pose: DevicePose(
                latitude: origin.latitude, longitude: origin.longitude, altitude: origin.altitude,
                orientation: DeviceOrientation(heading: heading, pitch: pitch, roll: roll)),
            camera: camera, groundAltitude: ground)
    }

    /// A point at a local displacement from the device (via the same frame, so only the camera
    /// part is under test here; the frame itself is checked against PROJ elsewhere).
    static func point(east: Double, north: Double, up: Double) -> PointOfInterest {
        let frame = LocalFrame(latitude: origin.latitude, longitude: origin.longitude, altitude: origin.altitude)
        let geodetic = frame.ecef(of: ENUVector(east: east, north: north, up: up)).geodetic
        return PointOfInterest(
            id: "p", name: "p", latitude: geodetic.latitude, longitude: geodetic.longitude, altitude: geodetic.altitude)
    }

    /// A route vertex on the ground (1.5 m below the device) at a local displacement.
    static func groundVertex(east: Double, north: Double) -> GeoRoute.Vertex {
        let frame = LocalFrame(latitude: origin.latitude, longitude: origin.longitude, altitude: origin.altitude)
        let g = frame.ecef(of: ENUVector(east: east, north: north, up: -1.5)).geodetic
        return GeoRoute.Vertex(latitude: g.latitude, longitude: g.longitude, altitude: g.altitude)
    }

    @Test("a point straight ahead lands on the principal point; 45° right lands at the right edge")
    func ahead() throws {
        let projector = Self.projector(heading: 90)
        let ahead = try #require(projector.project(Self.point(east: 100, north: 0, up: 0)).pixel)
        #expect(abs(ahead.u - 500) < 1e-6 && abs(ahead.v - 300) < 1e-6)
        let right = try #require(projector.project(Self.point(east: 100, north: -100, up: 0)).pixel)
        #expect(abs(right.u - 1000) < 1e-6)  // tan 45° · fx + cx
        #expect(!projector.project(Self.point(east: 100, north: -100, up: 0)).inView, "u = W is outside [0, W)")
    }

    @Test("pitching up moves the horizon down in the image")
    func pitchSign() throws {
        let horizon = Self.point(east: 0, north: 100, up: 0)
        let up = try #require(Self.projector(pitch: 10).project(horizon).pixel)
        #expect(abs(up.v - (300 + 500 * tan(10 * Double.pi / 180))) < 1e-6)
        let down = try #require(Self.projector(pitch: -10).project(horizon).pixel)
        #expect(down.v < 300)
    }

    @Test("rolling clockwise turns the scene counter-clockwise: a point right of centre moves up")
    func rollSign() throws {
        let rightOfCentre = Self.point(east: 50, north: 100, up: 0)
        let level = try #require(Self.projector().project(rightOfCentre).pixel)
        let rolled = try #require(Self.projector(roll: 20).project(rightOfCentre).pixel)
        #expect(abs(level.v - 300) < 1e-6)
        #expect(rolled.v < 300)
        // The point turns 20° counter-clockwise about the principal point.
        let angle = atan2(-(rolled.v - 300), rolled.u - 500) * 180 / .pi
        #expect(abs(angle - 20) < 1e-6)
    }

    @Test("a point without altitude stands on the ground, and the result says which altitude")
    func ground() throws {
        let frame = LocalFrame(
            latitude: Self.origin.latitude, longitude: Self.origin.longitude, altitude: Self.origin.altitude)
        let geodetic = frame.ecef(of: ENUVector(east: 0, north: 50, up: 0)).geodetic
        let point = PointOfInterest(id: "g", name: "g", latitude: geodetic.latitude, longitude: geodetic.longitude)
        let result = Self.projector(ground: 18.5).project(point)
        #expect(result.assumedAltitude == 18.5)
        #expect(try #require(result.pixel).v > 300, "1.5 m below the camera: below the centre")
        #expect(abs(result.elevation - atan2(-1.5, 50) * 180 / .pi) < 1e-3)
    }

    @Test("a route passing behind the camera is cut at the near plane, not joined across the back")
    func routeBehind() {
        let projector = Self.projector()
        func vertex(_ east: Double, _ north: Double) -> GeoRoute.Vertex { Self.groundVertex(east: east, north: north) }
        // Ahead-left, behind, ahead-right: two visible pieces.
        let route = GeoRoute(id: "r", vertices: [vertex(-20, 40), vertex(-5, -10), vertex(5, -10), vertex(20, 40)])
        let pieces = projector.project(route)
        #expect(pieces.count == 2)
        for piece in pieces { #expect(piece.count >= 2) }
        // Each piece ends where the route reaches the near plane: far below the image (z → 0.1).
        #expect((pieces.first?.last?.v ?? 0) > 600)
        #expect((pieces.last?.first?.v ?? 0) > 600)
        #expect((pieces.first?.first?.u ?? 1000) < 500 && (pieces.last?.last?.u ?? 0) > 500)
    }

    @Test("a route wholly behind the camera gives nothing; one in front is one piece, divided under distortion")
    func routePieces() {
        let projector = Self.projector()
        func vertex(_ east: Double, _ north: Double) -> GeoRoute.Vertex { Self.groundVertex(east: east, north: north) }
        #expect(projector.project(GeoRoute(id: "b", vertices: [vertex(0, -10), vertex(5, -50)])).isEmpty)
        let ahead = projector.project(GeoRoute(id: "a", vertices: [vertex(-30, 60), vertex(30, 60)]))
        #expect(ahead.count == 1)
        let span = abs((ahead.first?.last?.u ?? 0) - (ahead.first?.first?.u ?? 0))
        #expect((ahead.first?.count ?? 0) >= Int(span / 8), "divided into pieces of at most about 8 px")
    }
}
