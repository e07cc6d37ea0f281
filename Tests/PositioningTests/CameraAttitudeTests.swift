import Foundation
import Testing

@testable import Positioning

/// Pitch and roll from a camera's gravity vector, by geometry.md §3's camera frame.
@Suite("camera attitude from gravity")
struct CameraAttitudeTests {
    /// Gravity, (0, 0, −1) in ENU, in the frame of a camera at `heading`, `pitch` and `roll`: the
    /// up components of the spec's axes x, y and z, negated (written from the spec, not from the
    /// closed form the type uses).
    static func gravity(heading: Double, pitch: Double, roll: Double) -> [Double] {
        let (h, p, r) = (heading * .pi / 180, pitch * .pi / 180, roll * .pi / 180)
        let x0 = [cos(h), -sin(h), 0.0]
        let y0 = [sin(h) * sin(p), cos(h) * sin(p), -cos(p)]
        let z = [sin(h) * cos(p), cos(h) * cos(p), sin(p)]
        let x = (0..<3).map { cos(r) * x0[$0] + sin(r) * y0[$0] }
        let y = (0..<3).map { -sin(r) * x0[$0] + cos(r) * y0[$0] }
        return [-x[2], -y[2], -z[2]]
    }

    @Test(
        "pitch and roll come back from the gravity a camera so turned measures, whatever its heading",
        arguments: [
            (0.0, 0.0, 0.0), (30.0, -7.6, 0.0), (200.0, 12.0, -12.0), (90.0, -45.0, 30.0), (315.0, 60.0, 170.0),
            (10.0, -85.0, -100.0),
        ])
    func fromGravity(heading: Double, pitch: Double, roll: Double) throws {
        let vector = Self.gravity(heading: heading, pitch: pitch, roll: roll).map { $0 * 0.98 }  // not unit length
        let attitude = try #require(CameraAttitude(time: Date(), gravity: vector))
        #expect(abs(attitude.pitch - pitch) < 1e-9)
        #expect(abs(attitude.roll - roll) < 1e-9)
    }

    @Test("the image's orientation turns gravity first: a picture turned 10° about the optical axis has 10° less roll")
    func imageOrientation() throws {
        let half = 10.0 * .pi / 360
        let level = try #require(
            CameraAttitude(time: Date(), gravity: [0, 1, 0], imageOrientation: [cos(half), 0, 0, sin(half)]))
        #expect(abs(level.roll + 10) < 1e-9)
        #expect(abs(level.pitch) < 1e-9)
        // About the right axis instead: the pitch changes, the roll does not.
        let tilted = try #require(
            CameraAttitude(time: Date(), gravity: [0, 1, 0], imageOrientation: [cos(half), sin(half), 0, 0]))
        #expect(abs(abs(tilted.pitch) - 10) < 1e-9)
        #expect(abs(tilted.roll) < 1e-9)
        #expect(CameraAttitude(time: Date(), gravity: [0, 0, 0]) == nil)
        #expect(CameraAttitude(time: Date(), gravity: [0, 1, 0], imageOrientation: [0, 0, 0, 0]) == nil)
        #expect(CameraAttitude(time: Date(), gravity: [0, 1]) == nil)
    }

    @Test("headings take the attitude at their times: interpolated, the roll the short way round, none across a gap")
    func applying() {
        let start = Date(timeIntervalSince1970: 1_000)
        let attitudes = [
            CameraAttitude(time: start, pitch: -10, roll: 170),
            CameraAttitude(time: start.addingTimeInterval(0.1), pitch: -20, roll: -170),
            CameraAttitude(time: start.addingTimeInterval(5), pitch: 0, roll: 0),
        ]
        let headings = [-1.0, 0.0, 0.05, 2.0, 6.0].map {
            OrientationSample(time: start.addingTimeInterval($0), heading: 90, origin: .course)
        }
        let result = CameraAttitude.applying(attitudes, to: headings)
        #expect(result.map(\.heading) == headings.map(\.heading))
        #expect(result[0].pitch == nil && result[0].roll == nil, "before the attitudes")
        #expect(result[1].pitch == -10 && result[1].roll == 170)
        #expect(abs((result[2].pitch ?? 0) + 15) < 1e-4, "(Date keeps times to about 0.1 µs)")
        #expect(abs(abs(result[2].roll ?? 0) - 180) < 1e-4, "170° to −170° passes 180°, not 0°")
        #expect(result[3].pitch == nil, "inside a gap of 4.9 s")
        #expect(result[4].pitch == nil, "after the attitudes")
        #expect(CameraAttitude.applying([], to: headings) == headings)
    }
}
