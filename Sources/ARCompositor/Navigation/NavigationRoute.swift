import Foundation

/// A route prepared for navigation: its length, its manoeuvres and a way to snap positions to it.
///
/// Distances are measured on the ellipsoid's surface segment by segment, each in the local frame of
/// its first vertex, so a route across a country is as exact as one across a square (no single flat
/// frame whose scale drifts with distance). Consecutive duplicate vertices are dropped. Altitudes
/// play no part: navigation is horizontal.
public struct NavigationRoute: Sendable {
    /// The route as given.
    public let route: GeoRoute
    /// The route's length in metres.
    public let length: Double
    /// The manoeuvres in order along the route; the last is always ``ManoeuvreKind/arrive`` at the end.
    public private(set) var manoeuvres: [Manoeuvre] = []
    /// The vertices used (duplicates dropped).
    let vertices: [GeoRoute.Vertex]
    private let points: [ECEFPoint]
    private let frames: [LocalFrame]
    /// Each segment's end in its start's frame: east and north, metres.
    private let ends: [SIMD2<Double>]
    /// Metres from the start to each vertex.
    let cumulative: [Double]

    /// Prepares `route`; nil when it has fewer than two distinct vertices.
    ///
    /// - Parameters:
    ///   - route: the route's vertices.
    ///   - turnWindow: see ``NavigationOptions/turnWindow``.
    public init?(_ route: GeoRoute, turnWindow: Double = NavigationOptions().turnWindow) {
        var vertices: [GeoRoute.Vertex] = []
        for vertex in route.vertices
        where vertices.last.map({ $0.latitude != vertex.latitude || $0.longitude != vertex.longitude }) ?? true {
            vertices.append(vertex)
        }
        guard vertices.count >= 2 else { return nil }
        self.route = route
        self.vertices = vertices
        points = vertices.map { ECEFPoint(latitude: $0.latitude, longitude: $0.longitude, altitude: 0) }
        frames = vertices.map { LocalFrame(latitude: $0.latitude, longitude: $0.longitude, altitude: 0) }
        var ends: [SIMD2<Double>] = []
        var cumulative = [0.0]
        for index in 0..<(vertices.count - 1) {
            let end = frames[index].enu(of: points[index + 1])
            ends.append(SIMD2(end.east, end.north))
            cumulative.append(cumulative[index] + end.horizontalDistance)
        }
        self.ends = ends
        self.cumulative = cumulative
        length = cumulative[cumulative.count - 1]
        manoeuvres = findManoeuvres(window: turnWindow)
    }

    /// The point `distance` metres along the route (clamped to it), on the chord of its segment.
    func point(at distance: Double) -> ECEFPoint {
        let along = min(max(distance, 0), length)
        var index = 0
        var high = cumulative.count - 1
        while high - index > 1 {  // the last vertex at or before `along`
            let middle = (index + high) / 2
            if cumulative[middle] <= along { index = middle } else { high = middle }
        }
        let span = cumulative[index + 1] - cumulative[index]
        let t = span > 0 ? (along - cumulative[index]) / span : 0
        let a = points[index]
        let b = points[index + 1]
        return ECEFPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, z: a.z + (b.z - a.z) * t)
    }

    /// The nearest point of the route to a position.
    ///
    /// A route can pass the same place twice (a loop, an out-and-back). With `progress` (the previous
    /// snap's distance along the route), the nearest point is looked for first between `tolerance`
    /// metres behind it and `lookahead` metres ahead, so a traveller is not snapped back to the way
    /// out nor ahead to the way back; only when everything there is more than `tolerance` further
    /// than the nearest point of the whole route (the traveller has jumped ahead, or started again)
    /// does the whole route count.
    public func snap(
        latitude: Double, longitude: Double, progress: Double? = nil, tolerance: Double = 20, lookahead: Double = 500
    ) -> RouteSnap {
        let position = ECEFPoint(latitude: latitude, longitude: longitude, altitude: 0)
        var global: (index: Int, along: Double, distance: Double, t: Double) = (0, 0, .infinity, 0)
        var windowed = global
        for index in ends.indices {
            let candidate = measure(position, segment: index)
            let along = cumulative[index] + candidate.t * (cumulative[index + 1] - cumulative[index])
            if candidate.distance < global.distance { global = (index, along, candidate.distance, candidate.t) }
            if let progress, along >= progress - tolerance, along <= progress + lookahead,
                candidate.distance < windowed.distance
            {
                windowed = (index, along, candidate.distance, candidate.t)
            }
        }
        let chosen = windowed.distance <= global.distance + tolerance ? windowed : global
        let end = ends[chosen.index] * chosen.t
        let snapped = frames[chosen.index].ecef(of: ENUVector(east: end.x, north: end.y, up: 0)).geodetic
        return RouteSnap(
            segment: chosen.index, distanceAlongRoute: chosen.along, distanceFromRoute: chosen.distance,
            latitude: snapped.latitude, longitude: snapped.longitude)
    }

    /// The route's direction (degrees clockwise from north) over the `ahead` metres after
    /// `distance` along it, measured at the nearest vertex.
    func bearing(at distance: Double, ahead: Double = 10) -> Double {
        let start = point(at: distance)
        let end = point(at: distance + ahead)
        let (latitude, longitude, _) = start.geodetic
        let enu = LocalFrame(latitude: latitude, longitude: longitude, altitude: 0).enu(of: end)
        return enu.bearing
    }

    /// The vertices from `snap` to the end (the snapped point, then the vertices after its
    /// segment), or all of them without a snap, into `result` (emptied first, capacity kept).
    func remainingVertices(from snap: RouteSnap?, into result: inout [(latitude: Double, longitude: Double)]) {
        result.removeAll(keepingCapacity: true)
        if let snap { result.append((snap.latitude, snap.longitude)) }
        for vertex in vertices[((snap?.segment ?? -1) + 1)...] { result.append((vertex.latitude, vertex.longitude)) }
    }

    /// The distance from a position to the route's last vertex, horizontally.
    func distanceToEnd(latitude: Double, longitude: Double) -> Double {
        frames[frames.count - 1].enu(latitude: latitude, longitude: longitude, altitude: 0).horizontalDistance
    }

    /// A position's distance from segment `index` and where along it (0…1) the nearest point is.
    private func measure(_ position: ECEFPoint, segment index: Int) -> (distance: Double, t: Double) {
        let enu = frames[index].enu(of: position)
        let p = SIMD2(enu.east, enu.north)
        let e = ends[index]
        let lengthSquared = (e * e).sum()
        let t = lengthSquared > 0 ? min(max((p * e).sum() / lengthSquared, 0), 1) : 0
        let offset = p - e * t
        return ((offset * offset).sum().squareRoot(), t)
    }

    /// The manoeuvres: at each interior vertex, the turn between the route's direction over the
    /// `window` metres before it and over the `window` metres after it; where several vertices of one
    /// corner see a turn, the largest within `window` of the others is kept.
    private func findManoeuvres(window: Double) -> [Manoeuvre] {
        var candidates: [(index: Int, turn: Double)] = []
        for index in 1..<(vertices.count - 1) {
            let here = cumulative[index]
            let frame = frames[index]
            let before = frame.enu(of: point(at: here - window))
            let after = frame.enu(of: point(at: here + window))
            guard before.horizontalDistance > 0.5, after.horizontalDistance > 0.5 else { continue }
            let incoming = atan2(-before.east, -before.north)
            let outgoing = atan2(after.east, after.north)
            var turn = (outgoing - incoming) * 180 / .pi
            turn -= 360 * (turn / 360).rounded()
            if ManoeuvreKind(turn: turn) != nil { candidates.append((index, turn)) }
        }
        var kept: [(index: Int, turn: Double)] = []
        for candidate in candidates.sorted(by: { abs($0.turn) > abs($1.turn) })
        where !kept.contains(where: { abs(cumulative[$0.index] - cumulative[candidate.index]) < window }) {
            kept.append(candidate)
        }
        var result = kept.sorted { $0.index < $1.index }.compactMap { candidate -> Manoeuvre? in
            guard let kind = ManoeuvreKind(turn: candidate.turn) else { return nil }
            let vertex = vertices[candidate.index]
            return Manoeuvre(
                kind: kind, turn: candidate.turn, distanceAlongRoute: cumulative[candidate.index],
                latitude: vertex.latitude, longitude: vertex.longitude)
        }
        let last = vertices[vertices.count - 1]
        result.append(
            Manoeuvre(
                kind: .arrive, turn: 0, distanceAlongRoute: length, latitude: last.latitude, longitude: last.longitude))
        return result
    }
}
