import Foundation

/// A rotation as a unit quaternion (w + xi + yj + zk), the same rotation as a ``RotationMatrix``
/// (ENU to camera), for interpolating orientations between samples.
public struct UnitQuaternion: Hashable, Sendable {
    /// The scalar part.
    public var w: Double
    /// The i component.
    public var x: Double
    /// The j component.
    public var y: Double
    /// The k component.
    public var z: Double

    /// Creates a quaternion and normalises it; a zero quaternion becomes the identity.
    public init(w: Double, x: Double, y: Double, z: Double) {
        let norm = (w * w + x * x + y * y + z * z).squareRoot()
        guard norm > 0, norm.isFinite else {
            (self.w, self.x, self.y, self.z) = (1, 0, 0, 0)
            return
        }
        (self.w, self.x, self.y, self.z) = (w / norm, x / norm, y / norm, z / norm)
    }

    /// The quaternion of a rotation matrix (Shepperd's method: the numerically largest diagonal
    /// term picks the formula, so no division by a small number).
    public init(_ m: RotationMatrix) {
        let trace = m[0, 0] + m[1, 1] + m[2, 2]
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(w: s / 4, x: (m[2, 1] - m[1, 2]) / s, y: (m[0, 2] - m[2, 0]) / s, z: (m[1, 0] - m[0, 1]) / s)
        } else if m[0, 0] > m[1, 1] && m[0, 0] > m[2, 2] {
            let s = (1 + m[0, 0] - m[1, 1] - m[2, 2]).squareRoot() * 2
            self.init(w: (m[2, 1] - m[1, 2]) / s, x: s / 4, y: (m[0, 1] + m[1, 0]) / s, z: (m[0, 2] + m[2, 0]) / s)
        } else if m[1, 1] > m[2, 2] {
            let s = (1 + m[1, 1] - m[0, 0] - m[2, 2]).squareRoot() * 2
            self.init(w: (m[0, 2] - m[2, 0]) / s, x: (m[0, 1] + m[1, 0]) / s, y: s / 4, z: (m[1, 2] + m[2, 1]) / s)
        } else {
            let s = (1 + m[2, 2] - m[0, 0] - m[1, 1]).squareRoot() * 2
            self.init(w: (m[1, 0] - m[0, 1]) / s, x: (m[0, 2] + m[2, 0]) / s, y: (m[1, 2] + m[2, 1]) / s, z: s / 4)
        }
    }

    /// The rotation matrix of this quaternion.
    public var rotationMatrix: RotationMatrix {
        RotationMatrix(
            row0: SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            row1: SIMD3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            row2: SIMD3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))
    }

    /// Spherical linear interpolation from `self` (t = 0) to `other` (t = 1), along the shorter arc.
    public func slerp(to other: UnitQuaternion, t: Double) -> UnitQuaternion {
        var target = other
        var cosine = w * other.w + x * other.x + y * other.y + z * other.z
        if cosine < 0 {  // q and −q are the same rotation: take the short way
            target = UnitQuaternion(w: -other.w, x: -other.x, y: -other.y, z: -other.z)
            cosine = -cosine
        }
        // Nearly equal (under 0.002° apart): normalised linear interpolation differs from slerp by
        // less than 1e-12°, and avoids dividing by a vanishing sine.
        if cosine > 1 - 1e-10 {
            return UnitQuaternion(
                w: w + t * (target.w - w), x: x + t * (target.x - x), y: y + t * (target.y - y),
                z: z + t * (target.z - z))
        }
        let angle = acos(cosine)
        let a = sin((1 - t) * angle) / sin(angle)
        let b = sin(t * angle) / sin(angle)
        return UnitQuaternion(
            w: a * w + b * target.w, x: a * x + b * target.x, y: a * y + b * target.y, z: a * z + b * target.z)
    }
}
