import Testing

@testable import ARCompositor
@testable import ArcaptureCore

/// The plan view's geometry: where a point 100 m north of the user lands, north-up and heading-up.
@Suite("Map renderer")
struct MapRendererTests {
    /// 100 m north and 100 m east of (60°, 25°), through the same local frame projection uses.
    let north: PointOfInterest
    let east: PointOfInterest

    init() {
        let frame = LocalFrame(latitude: 60, longitude: 25, altitude: 0)
        let n = frame.ecef(of: ENUVector(east: 0, north: 100, up: 0)).geodetic
        let e = frame.ecef(of: ENUVector(east: 100, north: 0, up: 0)).geodetic
        north = PointOfInterest(id: "n", name: "North", latitude: n.latitude, longitude: n.longitude)
        east = PointOfInterest(id: "e", name: "East", latitude: e.latitude, longitude: e.longitude)
    }

    private func draw(_ orientation: MapOrientation, heading: Double) -> MapRenderer.Drawn {
        var image = YCbCrImage(width: 400, height: 400, subsampling: .s420)
        let renderer = MapRenderer(options: MapRenderer.Options(orientation: orientation, metresAcross: 400))
        return renderer.draw(
            into: &image, rect: MapRect(x: 0, y: 0, width: 400, height: 400), latitude: 60, longitude: 25,
            heading: heading, pointsOfInterest: [north, east], selected: [], route: nil, track: [])
    }

    @Test("north-up: north is up and east is right, whatever the heading; one pixel per metre here")
    func northUp() throws {
        let drawn = draw(.northUp, heading: 90)
        let n = try #require(drawn.points["n"])
        let e = try #require(drawn.points["e"])
        #expect(abs(n.x - 200) < 1e-6 && abs(n.y - 100) < 1e-6)
        #expect(abs(e.x - 300) < 1e-6 && abs(e.y - 200) < 1e-6)
        #expect(drawn.user == SIMD2(200, 200))
    }

    @Test("heading-up at 90°: east is up, north is on the left")
    func headingUp() throws {
        let drawn = draw(.headingUp, heading: 90)
        let n = try #require(drawn.points["n"])
        let e = try #require(drawn.points["e"])
        #expect(abs(e.x - 200) < 1e-6 && abs(e.y - 100) < 1e-6)
        #expect(abs(n.x - 100) < 1e-6 && abs(n.y - 200) < 1e-6)
    }

    @Test("segments are clipped to the map's rectangle")
    func clipping() throws {
        let rect = MapRect(x: 0, y: 0, width: 100, height: 100)
        let (a, b) = try #require(MapRenderer.clip(SIMD2(-50, 50), SIMD2(150, 50), to: rect))
        #expect(a == SIMD2(0, 50) && b == SIMD2(100, 50))
        #expect(MapRenderer.clip(SIMD2(-50, -10), SIMD2(150, -10), to: rect) == nil)
    }
}
