import Foundation
import Testing

@testable import ARCompositor

/// Properties that must hold for any input: inverse operations undo each other.
@Suite("Geometry properties")
struct GeometryPropertyTests {
    /// A deterministic pseudo-random sequence (an LCG), so failures reproduce.
    struct Sequence {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Double>) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Double(state >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
    }

    static let cameras: [CameraModel] = [
        CameraModel(horizontalFieldOfView: 70, width: 1280, height: 720),
        CameraModel(
            width: 1280, height: 720, intrinsics: CameraIntrinsics(fx: 880, fy: 880, cx: 641.2, cy: 358.7),
            distortion: .plumbBob(k1: -0.28, k2: 0.07, p1: 0.0009, p2: -0.0004, k3: 0)),
        CameraModel(
            width: 1280, height: 720, intrinsics: CameraIntrinsics(fx: 700, fy: 702, cx: 630, cy: 365),
            distortion: .rationalPolynomial(
                k1: 0.3, k2: -0.02, p1: 0.001, p2: 0.0005, k3: 0.001, k4: 0.65, k5: 0.01, k6: 0.002)),
    ]

    @Test("projecting a ray and unprojecting the pixel gives the ray back", arguments: 0..<3)
    func unprojection(cameraIndex: Int) throws {
        let camera = Self.cameras[cameraIndex]
        var random = Sequence(state: UInt64(cameraIndex + 1))
        for _ in 0..<500 {
            let x = random.next(-0.7...0.7)
            let y = random.next(-0.4...0.4)
            let pixel = try #require(camera.project(normalized: x, y))
            let ray = camera.ray(through: pixel)
            #expect(abs(ray.x - x) < 1e-9 && abs(ray.y - y) < 1e-9, "(\(x), \(y)) came back as (\(ray.x), \(ray.y))")
        }
    }

    @Test("ENU and back to geodetic is the identity, from 0.2 m to 100 km")
    func enuRoundTrip() {
        var random = Sequence(state: 7)
        for _ in 0..<300 {
            let frame = LocalFrame(
                latitude: random.next(-89.9...89.9), longitude: random.next(-180...180),
                altitude: random.next(-100...3000))
            let distance = pow(10, random.next(log10(0.2)...5))
            let azimuth = random.next(0...(2 * .pi))
            let displacement = ENUVector(
                east: distance * sin(azimuth), north: distance * cos(azimuth), up: random.next(-500...500))
            let back = frame.enu(of: frame.ecef(of: displacement))
            #expect(abs(back.east - displacement.east) < 1e-7)
            #expect(abs(back.north - displacement.north) < 1e-7)
            #expect(abs(back.up - displacement.up) < 1e-7)
            let geodetic = frame.ecef(of: displacement).geodetic
            let again = frame.enu(
                latitude: geodetic.latitude, longitude: geodetic.longitude, altitude: geodetic.altitude)
            #expect(abs(again.east - displacement.east) < 1e-6 && abs(again.north - displacement.north) < 1e-6)
        }
    }

    @Test("orientation to matrix to quaternion and back is the identity")
    func orientationRoundTrip() {
        var random = Sequence(state: 11)
        for _ in 0..<500 {
            let orientation = DeviceOrientation(
                heading: random.next(0...359.99), pitch: random.next(-89...89), roll: random.next(-179...179))
            let viaMatrix = DeviceOrientation(rotationMatrix: orientation.rotationMatrix)
            let viaQuaternion = DeviceOrientation(quaternion: orientation.quaternion)
            for other in [viaMatrix, viaQuaternion] {
                #expect(abs(other.heading - orientation.heading) < 1e-8)
                #expect(abs(other.pitch - orientation.pitch) < 1e-8)
                #expect(abs(other.roll - orientation.roll) < 1e-8)
            }
            let matrix = orientation.rotationMatrix
            #expect(abs((matrix.row0 * matrix.row1).sum()) < 1e-12, "rows are orthogonal")
            #expect(abs((matrix.row2 * matrix.row2).sum() - 1) < 1e-12, "rows are unit length")
        }
    }

    @Test("slerp halfway between two headings is the heading between them")
    func slerp() {
        let a = DeviceOrientation(heading: 350, pitch: 0, roll: 0).quaternion
        let b = DeviceOrientation(heading: 10, pitch: 0, roll: 0).quaternion
        let middle = DeviceOrientation(quaternion: a.slerp(to: b, t: 0.5))
        #expect(abs(middle.heading) < 1e-9 || abs(middle.heading - 360) < 1e-9, "the short way, across north")
        let quarter = DeviceOrientation(quaternion: a.slerp(to: b, t: 0.25))
        #expect(abs(quarter.heading - 355) < 1e-9)
    }
}
