import Foundation
import Positioning

/// Where the camera points: heading, pitch and roll in degrees, as the geometry spec defines them.
///
/// - heading: clockwise from true north; any real value (359.9 is −0.1).
/// - pitch: positive when the optical axis points up.
/// - roll: positive when the camera body turns clockwise about its optical axis as seen from behind
///   (its right side goes down); the scene then appears turned counter-clockwise.
///
/// They apply as intrinsic yaw, then pitch, then roll. At zero the optical axis is horizontal and
/// points north, image +x points east and image +y points down.
public struct DeviceOrientation: Hashable, Sendable {
    /// Degrees clockwise from true north.
    public var heading: Double
    /// Degrees above the horizon.
    public var pitch: Double
    /// Degrees clockwise about the optical axis, seen from behind.
    public var roll: Double

    /// Creates an orientation.
    public init(heading: Double, pitch: Double, roll: Double) {
        self.heading = heading
        self.pitch = pitch
        self.roll = roll
    }

    /// The rotation from ENU to the camera frame (spec §3):
    /// z = (sin h cos p, cos h cos p, sin p); x0 = (cos h, −sin h, 0); y0 = (sin h sin p, cos h sin p, −cos p);
    /// x = cos r·x0 + sin r·y0; y = −sin r·x0 + cos r·y0.
    public var rotationMatrix: RotationMatrix {
        let h = heading * .pi / 180
        let p = pitch * .pi / 180
        let r = roll * .pi / 180
        let z = SIMD3(sin(h) * cos(p), cos(h) * cos(p), sin(p))
        let x0 = SIMD3(cos(h), -sin(h), 0)
        let y0 = SIMD3(sin(h) * sin(p), cos(h) * sin(p), -cos(p))
        let x = cos(r) * x0 + sin(r) * y0
        let y = -sin(r) * x0 + cos(r) * y0
        return RotationMatrix(row0: x, row1: y, row2: z)
    }

    /// The orientation a rotation matrix describes, with heading in [0, 360), pitch in [−90, 90] and
    /// roll in (−180, 180]. At pitch ±90° heading and roll are not separable; heading is then 0 and the
    /// whole turn is roll.
    public init(rotationMatrix m: RotationMatrix) {
        let z = m.row2
        let pitch = asin(max(-1, min(1, z.z)))
        var heading: Double
        var roll: Double
        if abs(z.z) < 1 - 1e-12 {
            heading = atan2(z.x, z.y)
            // x0 and y0 for this heading and pitch, then roll from the actual x axis.
            let x0 = SIMD3(cos(heading), -sin(heading), 0)
            let y0 = SIMD3(sin(heading) * sin(pitch), cos(heading) * sin(pitch), -cos(pitch))
            roll = atan2((m.row0 * y0).sum(), (m.row0 * x0).sum())
        } else {
            heading = 0
            let x0 = SIMD3(1.0, 0, 0)
            let y0 = SIMD3(0, sin(pitch), -cos(pitch))
            roll = atan2((m.row0 * y0).sum(), (m.row0 * x0).sum())
        }
        self.init(
            heading: CompassDegrees.wrapped(heading * 180 / .pi), pitch: pitch * 180 / .pi, roll: roll * 180 / .pi)
    }

    /// The same rotation as a unit quaternion (for interpolation between samples).
    public var quaternion: UnitQuaternion { UnitQuaternion(rotationMatrix) }

    /// The orientation a unit quaternion describes.
    public init(quaternion: UnitQuaternion) {
        self.init(rotationMatrix: quaternion.rotationMatrix)
    }
}
