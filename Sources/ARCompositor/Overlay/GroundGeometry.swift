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
        for index in 0..<4 {
            let u = index & 1 == 0 ? 0 : Double(camera.width)
            let v = index & 2 == 0 ? 0 : Double(camera.height)
            let ray = camera.ray(through: PixelPoint(u: u, v: v))
            corner = SIMD2(max(corner.x, abs(ray.x)), max(corner.y, abs(ray.y)))
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
    ///
    /// The outline is written into `scratch.shape`, whose buffers are reused frame after frame.
    func ribbon(
        _ vertices: [(latitude: Double, longitude: Double)], width: Double, maximumDistance: Double,
        scratch: GroundScratch
    ) {
        scratch.points.removeAll(keepingCapacity: true)
        scratch.left.removeAll(keepingCapacity: true)
        scratch.right.removeAll(keepingCapacity: true)
        scratch.shape.contours[0].removeAll(keepingCapacity: true)
        for vertex in vertices {
            let enu = projector.enu(latitude: vertex.latitude, longitude: vertex.longitude, altitude: 0)
            let point = SIMD2(enu.x, enu.y)
            guard scratch.points.last.map({ distance($0, point) > 0.01 }) ?? true else { continue }
            // Pieces short near the camera, longer further away: each at most 8 % of its distance
            // from the camera (at least 1 m), stepping along the segment.
            if let last = scratch.points.last {
                let span = distance(last, point)
                let direction = (point - last) / span
                var along = 0.0
                var added = 0
                while added < 400 {
                    along += max(1, length(of: last + direction * along) * 0.08)
                    guard along < span - 0.5 else { break }
                    scratch.points.append(last + direction * along)
                    added += 1
                }
            }
            scratch.points.append(point)
        }
        let points = scratch.points
        guard points.count >= 2 else { return }
        // Offsets at each vertex: the mean of the neighbouring segments' normals, lengthened at
        // bends (a mitre, capped at twice the half width) so neighbouring quads share their edges.
        let half = width / 2
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
            scratch.left.append(points[index] + offset)
            scratch.right.append(points[index] - offset)
        }
        // One polygon, up the left edge and back down the right, so the edges shared by
        // neighbouring pieces are not there to rasterise; it ends at the first vertex beyond
        // `maximumDistance`.
        let count = (points.firstIndex { length(of: $0) > maximumDistance }).map { max(2, $0 + 1) } ?? points.count
        scratch.outline.removeAll(keepingCapacity: true)
        scratch.outline.append(contentsOf: scratch.left[0..<count])
        scratch.outline.append(contentsOf: scratch.right[0..<count].reversed())
        project(scratch.outline, scratch: scratch)
    }

    /// A flat arrow on the ground at `latitude`, `longitude`, pointing along `bearing` degrees,
    /// `length` metres long: what a driver sees painted on the road before a turn.
    ///
    /// The outline is written into `scratch.shape`.
    func arrow(latitude: Double, longitude: Double, bearing: Double, length: Double, scratch: GroundScratch) {
        let enu = projector.enu(latitude: latitude, longitude: longitude, altitude: 0)
        let centre = SIMD2(enu.x, enu.y)
        let radians = bearing * .pi / 180
        let forward = SIMD2(sin(radians), cos(radians))
        let side = SIMD2(forward.y, -forward.x)  // to the right
        scratch.shape.contours[0].removeAll(keepingCapacity: true)
        scratch.outline.removeAll(keepingCapacity: true)
        for corner in Self.arrowOutline {
            scratch.outline.append(centre + forward * (corner.x * length) + side * (corner.y * length))
        }
        project(scratch.outline, scratch: scratch)
    }

    /// The arrow's outline: along its length (−0.5…0.5) and across it, in lengths.
    private static let arrowOutline: [SIMD2<Double>] = [
        SIMD2(0.5, 0), SIMD2(0.05, 0.35), SIMD2(0.05, 0.14), SIMD2(-0.5, 0.14), SIMD2(-0.5, -0.14), SIMD2(0.05, -0.14),
        SIMD2(0.05, -0.35),
    ]

    /// Takes a ground polygon (east, north) to pixels: camera coordinates, clipped at the near
    /// plane, projected, wound clockwise on screen; nil when nothing is in front or the lens model
    /// cannot take a vertex.
    private func project(_ polygon: [SIMD2<Double>], scratch: GroundScratch) {
        scratch.clipA.removeAll(keepingCapacity: true)
        for point in polygon { scratch.clipA.append(projector.cameraPoint(enu: SIMD3(point.x, point.y, groundUp))) }
        let near = CameraModel.nearPlane * 1.0001
        let (a, b) = (spread.x, spread.y)
        // The near plane, then the pyramid's four sides (all outside the image), between two
        // buffers in turn.
        Self.clip(scratch.clipA, into: &scratch.clipB) { $0.z - near }
        Self.clip(scratch.clipB, into: &scratch.clipA) { a * $0.z - $0.x }
        Self.clip(scratch.clipA, into: &scratch.clipB) { a * $0.z + $0.x }
        Self.clip(scratch.clipB, into: &scratch.clipA) { b * $0.z - $0.y }
        Self.clip(scratch.clipA, into: &scratch.clipB) { b * $0.z + $0.y }
        guard scratch.clipB.count >= 3 else { return }
        var area = 0.0
        var previous: SIMD2<Double>?
        for point in scratch.clipB {
            guard let pixel = projector.camera.project(point) else {
                scratch.shape.contours[0].removeAll(keepingCapacity: true)
                return
            }
            let current = SIMD2(pixel.u, pixel.v)
            if let previous { area += previous.x * current.y - current.x * previous.y }
            previous = current
            scratch.shape.contours[0].append(current)
        }
        if let first = scratch.shape.contours[0].first, let last = previous {
            area += last.x * first.y - first.x * last.y
        }
        if area < 0 { scratch.shape.contours[0].reverse() }
    }

    /// Sutherland–Hodgman against one plane: keeps where `distance` ≥ 0.
    private static func clip(
        _ polygon: [SIMD3<Double>], into result: inout [SIMD3<Double>], distance: (SIMD3<Double>) -> Double
    ) {
        result.removeAll(keepingCapacity: true)
        guard polygon.count >= 3 else { return }
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
    }

    private func normal(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double>? {
        let d = b - a
        let size = (d * d).sum().squareRoot()
        return size > 1e-9 ? SIMD2(-d.y, d.x) / size : nil
    }

    private func length(of point: SIMD2<Double>) -> Double { (point * point).sum().squareRoot() }

    private func distance(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { length(of: b - a) }
}
