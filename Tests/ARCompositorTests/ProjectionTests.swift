import Foundation
import TestSupport
import Testing

@testable import ARCompositor

extension ExpectedGeometry.Camera {
    var cameraModel: CameraModel {
        let intrinsics = CameraIntrinsics(fx: fx, fy: fy, cx: cx, cy: cy)
        let c = coefficients ?? []
        switch self.model {
        case "plumb_bob":
            return CameraModel(
                width: width, height: height, intrinsics: intrinsics,
                distortion: .plumbBob(k1: c[0], k2: c[1], p1: c[2], p2: c[3], k3: c[4]))
        case "rational_polynomial":
            return CameraModel(
                width: width, height: height, intrinsics: intrinsics,
                distortion: .rationalPolynomial(
                    k1: c[0], k2: c[1], p1: c[2], p2: c[3], k3: c[4], k4: c[5], k5: c[6], k6: c[7]))
        default:
            return CameraModel(width: width, height: height, intrinsics: intrinsics)
        }
    }
}

/// Projection against values from PROJ and OpenCV (Fixtures/make-expected.py): cardinal headings and
/// wrap-around, pitch and roll signs, behind the camera and at the image edges, 0.2 m to 80 km,
/// high latitudes, all four hemispheres, the antimeridian, altitude differences, and distortion.
@Suite("Projection matches independent geometry")
struct ProjectionTests {
    @Test("the fixture was generated and loads")
    func fixture() {
        #expect(ExpectedGeometry.shared.generator.contains("pyproj"))
        #expect(ExpectedGeometry.shared.projection.count >= 60)
    }

    @Test("each case", arguments: ExpectedGeometry.shared.projection)
    func projection(_ test: ExpectedGeometry.ProjectionCase) throws {
        let device = test.device
        let pose = DevicePose(
            latitude: device.lat, longitude: device.lon, altitude: device.alt,
            orientation: DeviceOrientation(heading: device.heading, pitch: device.pitch, roll: device.roll))
        let camera =
            test.camera.hfov.map {
                CameraModel(horizontalFieldOfView: $0, width: test.camera.width, height: test.camera.height)
            } ?? test.camera.cameraModel
        let projector = Projector(pose: pose, camera: camera, groundAltitude: 0)
        let point = PointOfInterest(
            id: "p", name: test.name, latitude: test.poi.lat, longitude: test.poi.lon, altitude: test.poi.alt)
        let result = projector.project(point)
        let expected = test.expected
        let enu = pose.localFrame.enu(latitude: test.poi.lat, longitude: test.poi.lon, altitude: test.poi.alt)
        // Metres: PROJ and this code agree to well under a millimetre even at 80 km.
        let tolerance = max(1e-6, expected.distance * 1e-9)
        #expect(abs(enu.east - expected.east) < tolerance)
        #expect(abs(enu.north - expected.north) < tolerance)
        #expect(abs(enu.up - expected.up) < tolerance)
        #expect(abs(result.distance - expected.distance) < tolerance)
        #expect(abs(result.depth - expected.depth) < tolerance)
        // Angles: both sides place points to about 1e-9 m (ECEF coordinates are ~6.4e6 m), so allow
        // the angle 1e-8 m subtends at this distance, and never less than 1e-7 degrees.
        let angleTolerance = max(1e-7, atan(1e-8 / max(enu.horizontalDistance, 1e-9)) * 180 / .pi)
        let bearingError = abs(result.bearing - expected.bearing).truncatingRemainder(dividingBy: 360)
        #expect(min(bearingError, 360 - bearingError) < angleTolerance)
        #expect(result.bearing >= 0 && result.bearing < 360)
        #expect(abs(result.elevation - expected.elevation) < max(1e-7, atan(1e-8 / expected.distance) * 180 / .pi))
        #expect(result.inView == expected.inView)
        if let u = expected.u, let v = expected.v {
            let pixel = try #require(result.pixel)
            // The spec's bound is 0.5 px; two independent implementations agree far closer.
            #expect(abs(pixel.u - u) < 1e-4, "u \(pixel.u) vs OpenCV \(u)")
            #expect(abs(pixel.v - v) < 1e-4, "v \(pixel.v) vs OpenCV \(v)")
        } else {
            #expect(result.pixel == nil)
        }
    }

    @Test("geodetic to ECEF matches PROJ, and back", arguments: ExpectedGeometry.shared.ecef)
    func ecef(_ test: ExpectedGeometry.ECEFCase) {
        let point = ECEFPoint(latitude: test.lat, longitude: test.lon, altitude: test.alt)
        #expect(abs(point.x - test.x) < 1e-6)
        #expect(abs(point.y - test.y) < 1e-6)
        #expect(abs(point.z - test.z) < 1e-6)
        let back = ECEFPoint(x: test.x, y: test.y, z: test.z).geodetic
        #expect(abs(back.latitude - test.lat) < 1e-10)
        if abs(test.lat) < 90 { #expect(abs(back.longitude - test.lon) < 1e-10) }
        #expect(abs(back.altitude - test.alt) < 1e-6)
    }

    @Test(
        "the monotonic range of distortion matches numpy's polynomial roots",
        arguments: ExpectedGeometry.shared.monotonic)
    func monotonic(_ test: ExpectedGeometry.MonotonicCase) {
        let c = test.coefficients
        let distortion: LensDistortion =
            test.model == "plumb_bob"
            ? .plumbBob(k1: c[0], k2: c[1], p1: c[2], p2: c[3], k3: c[4])
            : .rationalPolynomial(k1: c[0], k2: c[1], p1: c[2], p2: c[3], k3: c[4], k4: c[5], k5: c[6], k6: c[7])
        if let radius = test.radius {
            #expect(abs(distortion.monotonicRadius - radius) < 1e-6)
        } else {
            #expect(distortion.monotonicRadius == .infinity)
        }
    }
}
