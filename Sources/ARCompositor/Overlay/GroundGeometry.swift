import Foundation

/// Shapes lying on the ground in front of the camera, projected into the frame: the route's ribbon
/// and the manoeuvre arrow.
///
/// Polygons are built in the device's ENU frame at the ground's altitude, turned into camera
/// coordinates, clipped against the near plane (so nothing behind the camera is drawn and nothing
/// crossing it wraps round), projected through the lens model and wound one way, so that
/// overlapping pieces join into one shape instead of cancelling. Long pieces are cut short first
/// (at most 8 % of their distance from the camera, at least 1 m), because a straight edge bends
/// under lens distortion and a quad's edges must follow.
struct GroundGeometry {
    let projector: Projector
    /// Ground altitude below the device, as an ENU `up`.
    let groundUp: Double

    init(projector: Projector) {
        self.projector = projector
        groundUp = projector.groundAltitude - projector.pose.altitude
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
            // Pieces short near the camera, longer further away.
            if let last = points.last {
                let span = distance(last, point)
                let direction = point - last
                let t = min(max(-(last * direction).sum() / (span * span), 0), 1)
                let nearest = length(of: last + direction * t)
                let pieces = min(200, max(1, Int((span / max(1, nearest * 0.08)).rounded(.up))))
                for piece in 1..<pieces { points.append(last + (point - last) * (Double(piece) / Double(pieces))) }
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
        var contours: [[SIMD2<Double>]] = []
        for index in 0..<(points.count - 1) {
            let start = points[index]
            guard length(of: start) <= maximumDistance else { continue }
            let quad = [left[index], right[index], right[index + 1], left[index + 1]]
            if let contour = project(quad) { contours.append(contour) }
        }
        return Shape(contours: contours)
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
        let inCamera = polygon.map { projector.cameraPoint(enu: SIMD3($0.x, $0.y, groundUp)) }
        let near = CameraModel.nearPlane * 1.0001
        var clipped: [SIMD3<Double>] = []
        for (index, current) in inCamera.enumerated() {
            let previous = inCamera[(index + inCamera.count - 1) % inCamera.count]
            let inside = current.z >= near
            if inside != (previous.z >= near) {  // the edge crosses the near plane
                clipped.append(previous + (current - previous) * ((near - previous.z) / (current.z - previous.z)))
            }
            if inside { clipped.append(current) }
        }
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

    private func normal(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double>? {
        let d = b - a
        let size = (d * d).sum().squareRoot()
        return size > 1e-9 ? SIMD2(-d.y, d.x) / size : nil
    }

    private func length(of point: SIMD2<Double>) -> Double { (point * point).sum().squareRoot() }

    private func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { length(of: b - a) }
}
