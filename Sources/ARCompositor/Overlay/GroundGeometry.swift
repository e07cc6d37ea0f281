import Foundation

/// Shapes lying on the ground in front of the camera, projected into the frame: the route's ribbon
/// and the manoeuvre arrow.
///
/// Polygons are built in the device's ENU frame at the ground's altitude, turned into camera
/// coordinates, clipped against the near plane (Sutherland–Hodgman, which against one plane is
/// right for concave polygons too: nothing behind the camera is drawn and nothing crossing it wraps
/// round), projected through the lens model and wound one way. Long pieces are cut short first (at
/// most 8 % of their distance from the camera, at least 1 m), because a straight edge bends under
/// lens distortion and the outline must follow.
struct GroundGeometry {
    let projector: Projector
    /// Ground altitude below the device, as an ENU `up`.
    let groundUp: Double

    /// Half-widths of the viewing pyramid kept, as x/z and y/z: a little wider than the image's
    /// corners, and within the lens model's valid radius, so every vertex left projects.
    let spread: SIMD2<Double>

    init(projector: Projector) {
        self.projector = projector
        groundUp = projector.groundAltitude - projector.pose.altitude
        let camera = projector.camera
        var corner = SIMD2<Double>(0, 0)
        for u in [0.0, Double(camera.width)] {
            for v in [0.0, Double(camera.height)] {
                let ray = camera.ray(through: PixelPoint(u: u, v: v))
                corner = SIMD2(max(corner.x, abs(ray.x)), max(corner.y, abs(ray.y)))
            }
        }
        var spread = corner * 1.1 + 0.05
        let radius = camera.monotonicRadius * 0.999
        if radius.isFinite, (spread * spread).sum().squareRoot() > radius {
            spread *= radius / (spread * spread).sum().squareRoot()
        }
        self.spread = spread
    }

    /// The ribbon `width` metres wide along `vertices` (lat, lon); pieces starting more than
    /// `maximumDistance` metres from the device are left out.
    func ribbon(_ vertices: [(latitude: Double, longitude: Double)], width: Double, maximumDistance: Double) -> Shape {
        var points: [SIMD2<Double>] = []  // east, north
        points.reserveCapacity(vertices.count * 2)
        for vertex in vertices {
            let enu = projector.enu(latitude: vertex.latitude, longitude: vertex.longitude, altitude: 0)
            let point = SIMD2(enu.x, enu.y)
            guard points.last.map({ distance($0, point) > 0.01 }) ?? true else { continue }
            // Pieces short near the camera, longer further away: each at most 8 % of its distance
            // from the camera (at least 1 m), stepping along the segment.
            if let last = points.last {
                let span = distance(last, point)
                let direction = (point - last) / span
                var along = 0.0
                var added = 0
                while added < 400 {
                    along += max(1, length(of: last + direction * along) * 0.08)
                    guard along < span - 0.5 else { break }
                    points.append(last + direction * along)
                    added += 1
                }
            }
            points.append(point)
        }
        guard points.count >= 2 else { return Shape(contours: []) }
        // Offsets at each vertex: the mean of the neighbouring segments' normals, lengthened at
        // bends (a mitre, capped at twice the half width) so neighbouring quads share their edges.
        let half = width / 2
        var left: [SIMD2<Double>] = []
        var right: [SIMD2<Double>] = []
        for index in points.indices {
            let before = index > 0 ? normal(points[index - 1], points[index]) : nil
            let after = index + 1 < points.count ? normal(points[index], points[index + 1]) : nil
            var offset = (before ?? after ?? .zero) + (after ?? before ?? .zero)
            let size = (offset * offset).sum().squareRoot()
            if size > 1e-9 {
                offset /= size
                let cosine = before.map { (offset * $0).sum() } ?? 1
                offset *= half / max(0.5, cosine)
            }
            left.append(points[index] + offset)
            right.append(points[index] - offset)
        }
        // One polygon, up the left edge and back down the right, so the edges shared by
        // neighbouring pieces are not there to rasterise; it ends at the first vertex beyond
        // `maximumDistance`.
        let count = (points.firstIndex { length(of: $0) > maximumDistance }).map { max(2, $0 + 1) } ?? points.count
        let outline = Array(left[0..<count]) + right[0..<count].reversed()
        return Shape(contours: project(outline).map { [$0] } ?? [])
    }

    /// A flat arrow on the ground at `latitude`, `longitude`, pointing along `bearing` degrees,
    /// `length` metres long: what a driver sees painted on the road before a turn.
    func arrow(latitude: Double, longitude: Double, bearing: Double, length: Double) -> Shape {
        let enu = projector.enu(latitude: latitude, longitude: longitude, altitude: 0)
        let centre = SIMD2(enu.x, enu.y)
        let radians = bearing * .pi / 180
        let forward = SIMD2(sin(radians), cos(radians))
        let side = SIMD2(forward.y, -forward.x)  // to the right
        let outline: [(Double, Double)] = [
            (0.5, 0), (0.05, 0.35), (0.05, 0.14), (-0.5, 0.14), (-0.5, -0.14), (0.05, -0.14), (0.05, -0.35),
        ]
        let polygon = outline.map { centre + forward * ($0.0 * length) + side * ($0.1 * length) }
        return Shape(contours: project(polygon).map { [$0] } ?? [])
    }

    /// Takes a ground polygon (east, north) to pixels: camera coordinates, clipped at the near
    /// plane, projected, wound clockwise on screen; nil when nothing is in front or the lens model
    /// cannot take a vertex.
    private func project(_ polygon: [SIMD2<Double>]) -> [SIMD2<Double>]? {
        var clipped = polygon.map { projector.cameraPoint(enu: SIMD3($0.x, $0.y, groundUp)) }
        let near = CameraModel.nearPlane * 1.0001
        let (a, b) = (spread.x, spread.y)
        // The near plane, then the pyramid's four sides (all outside the image).
        clipped = Self.clip(clipped) { $0.z - near }
        clipped = Self.clip(clipped) { a * $0.z - $0.x }
        clipped = Self.clip(clipped) { a * $0.z + $0.x }
        clipped = Self.clip(clipped) { b * $0.z - $0.y }
        clipped = Self.clip(clipped) { b * $0.z + $0.y }
        guard clipped.count >= 3 else { return nil }
        var pixels: [SIMD2<Double>] = []
        pixels.reserveCapacity(clipped.count)
        for point in clipped {
            guard let pixel = projector.camera.project(point) else { return nil }
            pixels.append(SIMD2(pixel.u, pixel.v))
        }
        var area = 0.0
        for index in pixels.indices {
            let a = pixels[index]
            let b = pixels[(index + 1) % pixels.count]
            area += a.x * b.y - b.x * a.y
        }
        return area < 0 ? pixels.reversed() : pixels
    }

    /// Sutherland–Hodgman against one plane: keeps where `distance` ≥ 0.
    private static func clip(_ polygon: [SIMD3<Double>], distance: (SIMD3<Double>) -> Double) -> [SIMD3<Double>] {
        guard polygon.count >= 3 else { return [] }
        var result: [SIMD3<Double>] = []
        result.reserveCapacity(polygon.count + 4)
        var previous = polygon[polygon.count - 1]
        var previousDistance = distance(previous)
        for current in polygon {
            let currentDistance = distance(current)
            if (currentDistance >= 0) != (previousDistance >= 0) {
                let t = previousDistance / (previousDistance - currentDistance)
                result.append(previous + (current - previous) * t)
            }
            if currentDistance >= 0 { result.append(current) }
            previous = current
            previousDistance = currentDistance
        }
        return result
    }

    private func normal(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double>? {
        let d = b - a
        let size = (d * d).sum().squareRoot()
        return size > 1e-9 ? SIMD2(-d.y, d.x) / size : nil
    }

    private func length(of point: SIMD2<Double>) -> Double { (point * point).sum().squareRoot() }

    private func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { length(of: b - a) }
}
