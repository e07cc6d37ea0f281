import Foundation
import Testing

@testable import ARCompositor
@testable import ArcaptureCore

@Suite("Route ribbon, manoeuvre arrow, panel and banner on frames")
struct RouteDrawingTests {
    let origin = (latitude: 45.2735, longitude: 13.7142)
    let camera = CameraModel(horizontalFieldOfView: 90, width: 640, height: 360)
    let height = 1.5

    private func vertex(east: Double, north: Double) -> GeoRoute.Vertex {
        let p = LocalFrame(latitude: origin.latitude, longitude: origin.longitude, altitude: 0)
            .ecef(of: ENUVector(east: east, north: north, up: 0)).geodetic
        return GeoRoute.Vertex(latitude: p.latitude, longitude: p.longitude)
    }

    private func route(_ points: [(Double, Double)]) throws -> NavigationRoute {
        try #require(NavigationRoute(GeoRoute(id: "r", vertices: points.map { vertex(east: $0.0, north: $0.1) })))
    }

    private func projector(heading: Double = 0) -> Projector {
        Projector(
            pose: DevicePose(
                latitude: origin.latitude, longitude: origin.longitude, altitude: height,
                orientation: DeviceOrientation(heading: heading, pitch: 0, roll: 0)),
            camera: camera, groundAltitude: 0)
    }

    /// Per image row, the ribbon's covered width in pixels.
    private func rowWidths(_ shape: Shape) -> [Int: Double] {
        let rasterizer = CoverageRasterizer()
        guard rasterizer.rasterize(shape, clipWidth: camera.width, clipHeight: camera.height) else { return [:] }
        let coverage = rasterizer.coverage()
        var widths: [Int: Double] = [:]
        for row in 0..<rasterizer.box.height {
            let sum = coverage[(row * rasterizer.box.width)..<((row + 1) * rasterizer.box.width)].reduce(0, +)
            if sum > 0 { widths[rasterizer.box.y + row] = Double(sum) }
        }
        return widths
    }

    @Test("a straight route ahead lies on the ground: below the horizon, as wide as 3 m at each row's depth")
    func ribbonOnTheGround() throws {
        let ribbon = GroundGeometry(projector: projector())
            .ribbon(
                try route([(0, 0), (0, 400)]).vertices.map { ($0.latitude, $0.longitude) }, width: 3,
                maximumDistance: 1000)
        let widths = rowWidths(ribbon)
        let cy = camera.intrinsics.cy
        #expect(widths.keys.allSatisfy { Double($0) >= cy - 1 }, "nothing above the horizon")
        var checked = 0
        for (row, width) in widths where Double(row) > cy + 8 && row < camera.height - 1 {
            // The ground seen through the middle of this row is at depth z = h·fy / (v − cy).
            let depth = height * camera.intrinsics.fy / (Double(row) + 0.5 - cy)
            let expected = 3 * camera.intrinsics.fx / depth
            guard expected < Double(camera.width) - 2 else { continue }
            #expect(abs(width - expected) < max(1.0, expected * 0.03), "row \(row): \(width) px, expected \(expected)")
            checked += 1
        }
        #expect(checked > 50)
    }

    @Test("nothing behind the camera is drawn; a route crossing behind is clipped, not wrapped round")
    func behindTheCamera() throws {
        let geometry = GroundGeometry(projector: projector(heading: 180))
        let behind = try route([(0, 5), (0, 300)])  // ahead of north, the camera looks south
        #expect(
            geometry.ribbon(behind.vertices.map { ($0.latitude, $0.longitude) }, width: 3, maximumDistance: 1000)
                .contours.isEmpty)
        let crossing = try route([(0, 50), (0, -200)])  // from behind the camera to 200 m in front
        let widths = rowWidths(
            geometry.ribbon(crossing.vertices.map { ($0.latitude, $0.longitude) }, width: 3, maximumDistance: 1000))
        #expect(!widths.isEmpty)
        #expect(widths.keys.allSatisfy { Double($0) >= camera.intrinsics.cy - 1 })
        // Behind the camera the arrow for a manoeuvre is not drawn either.
        let arrow = geometry.arrow(
            latitude: vertex(east: 0, north: 20).latitude, longitude: origin.longitude, bearing: 0, length: 6)
        #expect(arrow.contours.isEmpty)
    }

    private func frame() -> YCbCrImage {
        var image = YCbCrImage(width: camera.width, height: camera.height, subsampling: .s422)
        for index in image.planes.indices {
            for i in image.planes[index].bytes.indices { image.planes[index].bytes[i] = index == 0 ? 100 : 128 }
        }
        return image
    }

    private func changed(_ a: YCbCrImage, _ b: YCbCrImage, rows: Range<Int>, columns: Range<Int>) -> Int {
        var count = 0
        for y in rows {
            for x in columns where a.planes[0][x, y] != b.planes[0][x, y] { count += 1 }
        }
        return count
    }

    @Test("the annotator draws the ribbon, the panel and the banner while navigating, and none of them after arrival")
    func annotatorUntilArrival() throws {
        let annotator = try FrameAnnotator(
            pointsOfInterest: [], route: try route([(0, 0), (0, 100), (-60, 100)]),
            banner: try BannerTemplate("frame {frame}"))
        let pose = projector().pose
        let blank = frame()
        var image = blank
        let drawn = annotator.annotate(&image, pose: pose, camera: camera, groundAltitude: 0, speed: 1.4, frame: 7)
        let info = try #require(drawn.navigation)
        #expect(info.instruction() == "Turn left in 100 m")
        #expect(info.summary() == "160 m · 2 min")
        #expect(drawn.banner == "frame 7")
        // Ribbon: below the horizon in the middle; panel: top left; banner: the bottom rows.
        #expect(changed(blank, image, rows: 200..<300, columns: 300..<340) > 2000)
        #expect(changed(blank, image, rows: 10..<40, columns: 10..<100) > 500)
        #expect(changed(blank, image, rows: 355..<360, columns: 0..<640) > 3000)
        #expect(changed(blank, image, rows: 60..<170, columns: 0..<640) == 0, "nothing in the sky")

        // At the end of the route: navigation is over; only the banner is left.
        let end = vertex(east: -60, north: 100)
        var after = blank
        let last = annotator.annotate(
            &after,
            pose: DevicePose(
                latitude: end.latitude, longitude: end.longitude, altitude: height, orientation: pose.orientation),
            camera: camera, groundAltitude: 0)
        #expect(last.navigation == nil)
        #expect(last.banner == "frame –")
        #expect(changed(blank, after, rows: 0..<330, columns: 0..<640) == 0)
        #expect(changed(blank, after, rows: 355..<360, columns: 0..<640) > 3000)
    }

    @Test("a YUYV frame is annotated exactly as the same frame in planar 4:2:2")
    func annotateYUYV() throws {
        let route = try route([(0, 0), (0, 100), (-60, 100)])
        let planarAnnotator = try FrameAnnotator(pointsOfInterest: [], route: route)
        let packedAnnotator = try FrameAnnotator(pointsOfInterest: [], route: route)
        var planar = frame()
        var bytes: [UInt8] = []
        for y in 0..<camera.height {
            for pair in 0..<(camera.width / 2) {
                bytes += [
                    planar.planes[0][pair * 2, y], planar.planes[1][pair, y], planar.planes[0][pair * 2 + 1, y],
                    planar.planes[2][pair, y],
                ]
            }
        }
        var packed = try #require(YUYVImage(width: camera.width, height: camera.height, bytes: bytes))
        let pose = projector().pose
        planarAnnotator.annotate(&planar, pose: pose, camera: camera, groundAltitude: 0)
        packedAnnotator.annotate(&packed, pose: pose, camera: camera, groundAltitude: 0)
        var expected: [UInt8] = []
        for y in 0..<camera.height {
            for pair in 0..<(camera.width / 2) {
                expected += [
                    planar.planes[0][pair * 2, y], planar.planes[1][pair, y], planar.planes[0][pair * 2 + 1, y],
                    planar.planes[2][pair, y],
                ]
            }
        }
        #expect(packed.bytes == expected)
        #expect(packed.bytes != bytes, "something was drawn")
    }
}
