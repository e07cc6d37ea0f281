import Foundation

/// The camera's own pitch and roll at a time, measured against gravity by the camera (GoPro's
/// GRAV), in the picture's frame: no heading, which such a camera cannot know (its orientation
/// quaternions count from the start of the recording, not from north).
public struct CameraAttitude: Sendable, Equatable {
    /// The UTC time of the measurement.
    public var time: Date
    /// Degrees, positive when the optical axis points up (geometry.md §3).
    public var pitch: Double
    /// Degrees, positive when the camera turns clockwise about its optical axis, seen from behind.
    public var roll: Double
    /// Degrees the picture has turned clockwise (seen from above) since the recording began, from
    /// the camera's own orientation (GoPro's CORI, turned to the picture by IORI): a change of
    /// heading, not a heading; it does not wrap at 360. Nil when the camera recorded none.
    public var yaw: Double?

    /// Creates an attitude.
    public init(time: Date, pitch: Double, roll: Double, yaw: Double? = nil) {
        self.time = time
        self.pitch = pitch
        self.roll = roll
        self.yaw = yaw
    }

    /// The attitude from gravity's direction in the camera body's frame (x right, y down, z
    /// forward) and, when given, the image's orientation relative to the body (a quaternion w, x,
    /// y, z), which turns the direction into the picture's frame first. Nil for a zero vector or
    /// quaternion.
    ///
    /// With heading h, pitch p and roll r (geometry.md §3), gravity (0, 0, −1) in ENU is
    /// (sin r·cos p, cos r·cos p, −sin p) in the camera's frame: p = −asin(z), r = atan2(x, y).
    public init?(time: Date, gravity: [Double], imageOrientation: [Double]? = nil) {
        guard gravity.count == 3 else { return nil }
        var vector = gravity
        if let quaternion = imageOrientation, quaternion.count == 4 {
            guard let turned = Self.rotate(vector, by: quaternion) else { return nil }
            vector = turned
        }
        let length = (vector[0] * vector[0] + vector[1] * vector[1] + vector[2] * vector[2]).squareRoot()
        guard length > 1e-9, length.isFinite else { return nil }
        let (x, y, z) = (vector[0] / length, vector[1] / length, vector[2] / length)
        self.init(time: time, pitch: -asin(max(-1, min(1, z))) * 180 / .pi, roll: atan2(x, y) * 180 / .pi)
    }

    /// `vector` turned by the unit quaternion of `quaternion` (w, x, y, z): q·v·q⁻¹.
    static func rotate(_ vector: [Double], by quaternion: [Double]) -> [Double]? {
        let norm = quaternion.reduce(0) { $0 + $1 * $1 }.squareRoot()
        guard norm > 1e-9, norm.isFinite else { return nil }
        let (w, x, y, z) = (quaternion[0] / norm, quaternion[1] / norm, quaternion[2] / norm, quaternion[3] / norm)
        let (vx, vy, vz) = (vector[0], vector[1], vector[2])
        // t = 2 (q × v); v' = v + w t + q × t
        let (tx, ty, tz) = (2 * (y * vz - z * vy), 2 * (z * vx - x * vz), 2 * (x * vy - y * vx))
        return [
            vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx),
        ]
    }

    /// `headings` (each the direction of travel, say) with the pitch and roll of `attitudes`
    /// (oldest first) at their times, interpolated between the two around each; a heading outside
    /// the attitudes' span, or beside a gap longer than `maximumGap` seconds, keeps what it had.
    public static func applying(_ attitudes: [CameraAttitude], to headings: [OrientationSample], maximumGap: Double = 1)
        -> [OrientationSample]
    {
        guard !attitudes.isEmpty else { return headings }
        var index = 0
        return headings.map { sample in
            while index + 1 < attitudes.count && attitudes[index + 1].time <= sample.time { index += 1 }
            let before = attitudes[index]
            var result = sample
            if before.time == sample.time {
                result.pitch = before.pitch
                result.roll = before.roll
            } else if before.time < sample.time, index + 1 < attitudes.count {
                let after = attitudes[index + 1]
                let span = after.time.timeIntervalSince(before.time)
                guard span <= maximumGap else { return sample }
                let weight = sample.time.timeIntervalSince(before.time) / span
                result.pitch = before.pitch + (after.pitch - before.pitch) * weight
                // Roll as an angle: the shorter way round (±180° is one attitude).
                var turn = (after.roll - before.roll).truncatingRemainder(dividingBy: 360)
                if turn > 180 { turn -= 360 } else if turn < -180 { turn += 360 }
                result.roll = before.roll + turn * weight
            }
            return result
        }
    }
}
