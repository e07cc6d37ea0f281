import Foundation
import Testing

@testable import ARCompositor
@testable import ArcaptureCore
@testable import JPEGKit

/// The overlay drawn on a spliced JPEG frame (CaptureKit's `JPEGSplicer`, fed by the painters'
/// `willChange`): the MCU rows it decodes are exactly the rows the overlay changes, and every MCU
/// it changes is decoded.
@Suite("The overlay on spliced frames")
struct SplicedOverlayTests {
    static let origin = (latitude: 45.2735, longitude: 13.7142)

    static func place(east: Double, north: Double, up: Double = 0) -> (latitude: Double, longitude: Double) {
        let p = LocalFrame(latitude: origin.latitude, longitude: origin.longitude, altitude: 0)
            .ecef(of: ENUVector(east: east, north: north, up: up)).geodetic
        return (p.latitude, p.longitude)
    }

    /// 20 POIs ahead at 40-900 m, a route with a turn, and a banner: what issue 19 measures.
    static func annotator(route withRoute: Bool) throws -> FrameAnnotator {
        let pois = (0..<20).map { i in
            let bearing = (Double(i) - 9.5) * 4.0 * .pi / 180
            let distance = 40 + Double(i * 37 % 20) * 45
            let p = place(east: distance * sin(bearing), north: distance * cos(bearing))
            return PointOfInterest(id: "p\(i)", name: "Place \(i)", latitude: p.0, longitude: p.1, altitude: nil)
        }
        let route = try #require(
            NavigationRoute(
                GeoRoute(
                    id: "r",
                    vertices: [(0.0, 0.0), (0, 120), (-80, 120)].map {
                        let p = place(east: $0.0, north: $0.1)
                        return GeoRoute.Vertex(latitude: p.0, longitude: p.1)
                    })))
        return try FrameAnnotator(
            pointsOfInterest: pois, route: withRoute ? route : nil, banner: try BannerTemplate("frame {frame}"))
    }

    /// A textured 4:2:2 frame, as our encoder writes it with a restart marker every MCU row.
    static func frame(width: Int, height: Int) throws -> [UInt8] {
        var image = YCbCrImage(width: width, height: height, subsampling: .s422)
        for (index, plane) in image.planes.enumerated() {
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    image.planes[index][x, y] = UInt8(truncatingIfNeeded: (x * (3 + index) + y * 5 + (x * y) % 29) / 2)
                }
            }
        }
        return try JPEGEncoder().encode(image, quality: 85, restartRows: 1)
    }

    @Test(
        "the MCUs decoded hold every change, in exactly the MCU rows changed, and the rest is the camera's",
        arguments: [false, true])
    func dirtyRowsAreExact(route: Bool) throws {
        let (width, height) = (640, 360)
        let input = try Self.frame(width: width, height: height)
        let camera = CameraModel(horizontalFieldOfView: 90, width: width, height: height)
        let pose = DevicePose(
            latitude: Self.origin.latitude, longitude: Self.origin.longitude, altitude: 1.5,
            orientation: DeviceOrientation(heading: 0, pitch: 0, roll: 0))

        let splicer = try JPEGSplicer()
        var canvas = YCbCrImage(width: 8, height: 8, subsampling: .gray)
        #expect(splicer.begin(input, canvas: &canvas))
        let spliced = try Self.annotator(route: route)
        spliced.compositor.willChange = { rows, columns, image in
            splicer.prepare(rows: rows, columns: columns, in: &image)
        }
        spliced.annotate(&canvas, pose: pose, camera: camera, groundAltitude: 0, speed: 1.4, frame: 3)
        let output = try JPEGDecoder().decode(try splicer.finish(&canvas))

        let original = try JPEGDecoder().decode(input)
        var drawn = original
        let full = try Self.annotator(route: route)
        full.annotate(&drawn, pose: pose, camera: camera, groundAltitude: 0, speed: 1.4, frame: 3)
        // The MCUs (16x8 luma samples in 4:2:2) where any sample of any plane changed.
        let mcusPerRow = (width + 15) / 16
        var changed = Set<Int>()
        for (index, plane) in drawn.planes.enumerated() {
            let mcuWidth = index == 0 ? 16 : 8
            for y in 0..<plane.height {
                for x in 0..<plane.width where plane[x, y] != original.planes[index][x, y] {
                    changed.insert(y / 8 * mcusPerRow + x / mcuWidth)
                }
            }
        }
        #expect(!changed.isEmpty)
        let touched = Set(splicer.touchedMCUs)
        #expect(touched.isSuperset(of: changed), "changed, not decoded: \(changed.subtracting(touched).sorted())")
        #expect(
            Set(splicer.touchedMCURows) == Set(changed.map { $0 / mcusPerRow }),
            "decoded \(splicer.touchedMCURows.count) rows")
        // What the overlay leaves alone, in the rows it draws on too, is the camera's samples.
        for (index, plane) in output.planes.enumerated() {
            let mcuWidth = index == 0 ? 16 : 8
            for y in 0..<plane.height {
                for x in 0..<plane.width
                where !touched.contains(y / 8 * mcusPerRow + x / mcuWidth)
                    && plane[x, y] != original.planes[index][x, y]
                {
                    Issue.record("plane \(index) (\(x), \(y)) differs outside the MCUs decoded")
                    return
                }
            }
        }
        print(
            "splice: \(route ? "with" : "without") route, \(changed.count) MCUs changed, \(touched.count) of "
                + "\(mcusPerRow * height / 8) decoded, in \(splicer.touchedMCURows.count) of \(height / 8) rows")
    }

    @Test("drawn again with reusesLastLayout, the frame is the same, from the last layout")
    func reusedLayout() throws {
        let (width, height) = (640, 360)
        let camera = CameraModel(horizontalFieldOfView: 90, width: width, height: height)
        let pose = DevicePose(
            latitude: Self.origin.latitude, longitude: Self.origin.longitude, altitude: 1.5,
            orientation: DeviceOrientation(heading: 0, pitch: 0, roll: 0))
        let annotator = try Self.annotator(route: true)
        let blank = try JPEGDecoder().decode(try Self.frame(width: width, height: height))
        func draw() -> YCbCrImage {
            var image = blank
            annotator.draw(
                &image, pose: pose, camera: camera, groundAltitude: 0, route: nil, navigation: nil, frame: 3)
            return image
        }
        let first = draw()
        annotator.reusesLastLayout = true
        #expect(draw() == first)
        // The layout is really the last one: with the POIs gone, they are still drawn.
        let pois = annotator.pointsOfInterest
        annotator.pointsOfInterest = []
        #expect(draw() == first)
        annotator.reusesLastLayout = false
        let withoutPOIs = draw()
        #expect(withoutPOIs != first)
        annotator.pointsOfInterest = pois
        #expect(draw() == first)
    }
}
