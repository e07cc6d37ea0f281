import Foundation

/// Orientation from gravity and the magnetic field, both measured in the camera's frame (x right,
/// y down, z forward): the tilt from the accelerometer, the heading from the magnetometer turned
/// level by that tilt.
///
/// At rest an accelerometer measures the reaction to gravity, a vector pointing up. For heading h,
/// pitch p and roll r (geometry spec), "up" in camera axes is (−sin r·cos p, −cos r·cos p, sin p),
/// so p = asin(a_z/|a|) and r = atan2(−a_x, −a_y). The field turned back into a level frame facing
/// north, v = R(0, p, r)ᵀ·m, has the bearing −h, so the magnetic heading is −atan2(v_e, v_n); the
/// declination (east positive) makes it true.
public enum TiltCompensatedCompass {
    /// The orientation, or nil when the accelerometer reads (nearly) nothing or the camera points
    /// straight up or down, where heading is undefined.
    public static func orientation(
        acceleration a: SIMD3<Double>, magneticField m: SIMD3<Double>, declination: Double
    ) -> (heading: Double, pitch: Double, roll: Double)? {
        let gravity = (a * a).sum().squareRoot()
        guard gravity > 1e-9, (m * m).sum() > 0 else { return nil }
        let pitch = asin(max(-1, min(1, a.z / gravity)))
        guard abs(pitch) < (89.5 * .pi / 180) else { return nil }
        let roll = atan2(-a.x, -a.y)
        // Rows of R(0, p, r): the camera's axes in ENU for heading 0 (geometry spec §3).
        let x0 = SIMD3(1.0, 0, 0)
        let y0 = SIMD3(0, sin(pitch), -cos(pitch))
        let xAxis = cos(roll) * x0 + sin(roll) * y0
        let yAxis = -sin(roll) * x0 + cos(roll) * y0
        let zAxis = SIMD3(0, cos(pitch), sin(pitch))
        let level = xAxis * m.x + yAxis * m.y + zAxis * m.z
        let heading = CompassDegrees.wrapped(-atan2(level.x, level.y) * 180 / .pi + declination)
        return (heading, pitch * 180 / .pi, roll * 180 / .pi)
    }
}
