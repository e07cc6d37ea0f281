import Foundation

/// How far a camera's picture has turned about the vertical since the recording began, for a
/// camera that records its own orientation relative to that moment (GoPro's CORI).
///
/// The vertical is gravity turned into the start's frame, averaged over the recording (each
/// gravity vector turned back by its sample's orientation: on GoPro's sample clip they agree
/// within 2.2°, where the body's own vectors move through 15°). The picture's forward axis is
/// turned into the body's frame by IORI, then into the start's by CORI, projected on the
/// horizontal plane, and its angle measured from the first sample's, clockwise seen from above.
/// The axes (x right, y down, z forward) and CORI's sense were read from that clip; the sense
/// of the turns agrees with the picture's own motion there: between 4 s and 9 s the picture
/// turns 6.0° left by CORI and the scene moves 39 pixels right (phase correlation of the two
/// frames); between 10.0 s and 10.4 s it turns 24° right and the scene moves 114 pixels left.
enum CameraTurns {
    /// The turn at each sample (degrees, clockwise from the first sample's direction, not
    /// wrapped: a full turn right is 360), nil where the sample has no orientation or the
    /// picture looks almost straight up or down (its direction on the ground is then noise).
    ///
    /// - Parameters:
    ///   - gravity: gravity in the body's frame, one (x, y, z) a sample.
    ///   - imageOrientation: the picture's orientation relative to the body (IORI), per sample.
    ///   - cameraOrientation: the body's orientation relative to the start (CORI), per sample.
    static func yaws(gravity: [[Double]], imageOrientation: [[Double]?], cameraOrientation: [[Double]?]) -> [Double?] {
        let count = gravity.count
        guard imageOrientation.count == count, cameraOrientation.count == count else {
            return Array(repeating: nil, count: count)
        }
        // Down in the start's frame: the mean of every sample's gravity turned back.
        var down = [0.0, 0.0, 0.0]
        for index in 0..<count {
            guard let orientation = cameraOrientation[index], orientation.count == 4, gravity[index].count == 3,
                let turned = CameraAttitude.rotate(gravity[index], by: inverse(orientation)),
                let unit = normalized(turned)
            else { continue }
            for axis in 0..<3 { down[axis] += unit[axis] }
        }
        guard let down = normalized(down) else { return Array(repeating: nil, count: count) }
        var first: [Double]?
        var previous: Double?
        return (0..<count).map { index -> Double? in
            guard let orientation = cameraOrientation[index], orientation.count == 4 else { return nil }
            var forward = [0.0, 0.0, 1.0]
            if let picture = imageOrientation[index], picture.count == 4 {
                guard let body = CameraAttitude.rotate(forward, by: inverse(picture)) else { return nil }
                forward = body
            }
            guard let start = CameraAttitude.rotate(forward, by: inverse(orientation)) else { return nil }
            let along = dot(start, down)
            guard let level = normalized((0..<3).map { start[$0] - along * down[$0] }), abs(along) < 0.95 else {
                return nil
            }
            guard let reference = first else {
                first = level
                previous = 0
                return 0
            }
            // Seen from above (looking down `down`), clockwise is positive about `down`.
            let turn = atan2(dot(down, cross(reference, level)), dot(reference, level)) * 180 / .pi
            // Unwrapped: the multiple of 360 nearest the last turn, so a full turn counts.
            var yaw = turn
            if let last = previous { yaw += 360 * ((last - turn) / 360).rounded() }
            previous = yaw
            return yaw
        }
    }

    /// The inverse of a unit quaternion (w, x, y, z); callers check it has four values.
    private static func inverse(_ quaternion: [Double]) -> [Double] {
        [quaternion[0], -quaternion[1], -quaternion[2], -quaternion[3]]
    }

    private static func normalized(_ vector: [Double]) -> [Double]? {
        let length = dot(vector, vector).squareRoot()
        guard length > 1e-9, length.isFinite else { return nil }
        return vector.map { $0 / length }
    }

    private static func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }

    private static func cross(_ a: [Double], _ b: [Double]) -> [Double] {
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    }
}
