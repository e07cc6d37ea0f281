import Foundation

/// Projects points of interest and routes into a camera's frame from a device pose, exactly as
/// geometry spec §§2–5 define it: WGS84 → ECEF → ENU at the device → camera → distorted pixel.
///
/// A projector precomputes the local frame and rotation for one pose, so projecting many points for
/// that pose costs a few multiplications and trigonometric calls each.
public struct Projector: Sendable {
    /// The device pose.
    public let pose: DevicePose
    /// The camera.
    public let camera: CameraModel
    /// The ellipsoidal altitude used for points that give none: the ground.
    public let groundAltitude: Double
    private let frame: LocalFrame
    private let rotation: RotationMatrix

    /// Creates a projector.
    ///
    /// - Parameters:
    ///   - pose: where the device is and where it points.
    ///   - camera: the camera model, at the frame's size.
    ///   - groundAltitude: the altitude of points without one; normally the device's altitude minus
    ///     its height above the ground.
    public init(pose: DevicePose, camera: CameraModel, groundAltitude: Double) {
        self.pose = pose
        self.camera = camera
        self.groundAltitude = groundAltitude
        frame = pose.localFrame
        rotation = pose.orientation.rotationMatrix
    }

    /// Projects one point of interest.
    public func project(_ point: PointOfInterest) -> ProjectedPointOfInterest {
        let altitude = point.altitude ?? groundAltitude
        let enu = frame.enu(latitude: point.latitude, longitude: point.longitude, altitude: altitude)
        let cameraPoint = rotation.apply(enu.vector)
        let pixel = camera.project(cameraPoint)
        return ProjectedPointOfInterest(
            pointOfInterest: point, pixel: pixel, depth: cameraPoint.z, distance: enu.distance, bearing: enu.bearing,
            elevation: enu.elevation, inView: pixel.map(camera.contains) ?? false,
            assumedAltitude: point.altitude == nil ? groundAltitude : nil)
    }

    /// Projects many points of interest, in order.
    public func project(_ points: [PointOfInterest]) -> [ProjectedPointOfInterest] {
        var results: [ProjectedPointOfInterest] = []
        results.reserveCapacity(points.count)
        for point in points { results.append(project(point)) }
        return results
    }

    /// Projects many points of interest into `results` (emptied first, its capacity kept): no
    /// allocation once it has grown, for per-frame use.
    public func project(_ points: [PointOfInterest], into results: inout [ProjectedPointOfInterest]) {
        results.removeAll(keepingCapacity: true)
        results.reserveCapacity(points.count)
        for point in points { results.append(project(point)) }
    }

    /// The camera-frame position of a WGS84 point (x right, y down, z forward, metres).
    public func cameraPoint(latitude: Double, longitude: Double, altitude: Double) -> SIMD3<Double> {
        rotation.apply(frame.enu(latitude: latitude, longitude: longitude, altitude: altitude).vector)
    }

    /// The displacement from the device to a WGS84 point, in its local frame.
    func enu(latitude: Double, longitude: Double, altitude: Double) -> SIMD3<Double> {
        frame.enu(latitude: latitude, longitude: longitude, altitude: altitude).vector
    }

    /// An ENU displacement from the device in camera coordinates.
    func cameraPoint(enu: SIMD3<Double>) -> SIMD3<Double> { rotation.apply(enu) }

    /// Projects a route as the pieces of polyline that are visible in front of the camera.
    ///
    /// Each segment is clipped against the near plane (so a route that passes behind the camera is
    /// cut where it crosses, not joined across the back), then divided so that no piece spans more
    /// than about `maximumPieceLength` pixels, because a straight segment bends under lens
    /// distortion. A route leaves the result as several polylines where it goes behind the camera or
    /// beyond the lens model's range. Vertices without an altitude lie on the ground.
    ///
    /// - Returns: polylines of pixels (each with at least two points); pixels may lie outside the
    ///   image, for the drawing code to clip.
    public func project(_ route: GeoRoute, maximumPieceLength: Double = 8) -> [[PixelPoint]] {
        let points = route.vertices.map {
            cameraPoint(latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude ?? groundAltitude)
        }
        var polylines: [[PixelPoint]] = []
        var current: [PixelPoint] = []
        func finish() {
            if current.count >= 2 { polylines.append(current) }
            current = []
        }
        let near = CameraModel.nearPlane * (1 + 1e-9)  // just in front, so clipped ends project
        for (start, end) in zip(points, points.dropFirst()) {
            if start.z <= near && end.z <= near {  // wholly behind the camera
                finish()
                continue
            }
            var a = start
            var b = end
            if a.z <= near {  // comes out from behind the camera: a new piece starts at the crossing
                finish()
                a = a + (b - a) * ((near - a.z) / (b.z - a.z))
            }
            if b.z <= near { b = b + (a - b) * ((near - b.z) / (a.z - b.z)) }
            guard let first = camera.project(a), let last = camera.project(b) else {
                finish()
                continue
            }
            let span = max(abs(last.u - first.u), abs(last.v - first.v))
            let pieces = max(1, min(256, Int((span / maximumPieceLength).rounded(.up))))
            if current.isEmpty { current.append(first) }
            for piece in 1...pieces {
                guard let pixel = camera.project(a + (b - a) * (Double(piece) / Double(pieces))) else {
                    finish()
                    break
                }
                current.append(pixel)
            }
            if end.z <= near { finish() }  // goes behind the camera: the piece ends at the crossing
        }
        finish()
        return polylines
    }
}
