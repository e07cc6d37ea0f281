import Foundation

/// Where a polygon's name goes: its pole of inaccessibility, the point inside it farthest from its
/// edges (Mapbox's *polylabel* algorithm, as OpenStreetMap's renderers place area labels). A
/// centroid is not enough: an L-shaped building's or a horseshoe park's centroid lies outside it.
///
/// Computed in metres on a local plane around the polygon (an equirectangular projection: a
/// building, a park or a lake is small enough that the plane's error is far below the precision).
/// Cells of a grid over the polygon are split, best first, until none can hold a point farther
/// from the edges than the best found by more than `precision`.
///
/// Hand-written (~90 lines): GEOS's `GEOSMaximumInscribedCircle` answers the same question, but
/// linking GEOS (C++, with libstdc++, a few MB on a board) for this one call on the polygons of a
/// POI file is not worth it; the algorithm is short and published, and the tests compare it with
/// Shapely's independent implementation.
struct PolygonLabelPoint {
    /// A ring's vertices as (longitude, latitude) degrees; the first ring is the outline, the
    /// others holes.
    typealias Ring = [(longitude: Double, latitude: Double)]

    /// The label point of `rings` (an outline and its holes) to within `precision` metres, and its
    /// distance from the nearest edge in metres; nil for a polygon with no area.
    static func of(_ rings: [Ring], precision: Double = 0.5) -> (
        latitude: Double, longitude: Double, clearance: Double
    )? {
        search(rings, precision: precision).label
    }

    /// ``of(_:precision:)``, with the number of cells it looked at (the work it did).
    static func search(_ rings: [Ring], precision: Double) -> (
        label: (latitude: Double, longitude: Double, clearance: Double)?, cells: Int
    ) {
        var cells = 0
        let label = search(rings, precision: precision, counting: &cells)
        return (label, cells)
    }

    private static func search(_ rings: [Ring], precision: Double, counting cells: inout Int) -> (
        latitude: Double, longitude: Double, clearance: Double
    )? {
        guard let outline = rings.first, outline.count >= 3 else { return nil }
        let latitudes = outline.map(\.latitude)
        let longitudes = outline.map(\.longitude)
        guard let south = latitudes.min(), let north = latitudes.max(), let west = longitudes.min(),
            let east = longitudes.max()
        else { return nil }
        let origin = (latitude: (south + north) / 2, longitude: (west + east) / 2)
        let metresPerDegree = 6_371_008.8 * .pi / 180
        let xScale = metresPerDegree * cos(origin.latitude * .pi / 180)
        let plane = rings.map { ring in
            ring.map {
                (x: ($0.longitude - origin.longitude) * xScale, y: ($0.latitude - origin.latitude) * metresPerDegree)
            }
        }
        let width = (east - west) * xScale
        let height = (north - south) * metresPerDegree
        let longest = max(width, height)
        guard min(width, height) > 0 else { return nil }
        // The first grid's cells are as wide as the polygon's narrow side, but at most 64 along
        // its long one: a long thin ring (a river bank, a damaged file: found by fuzzing) would
        // otherwise start with millions of cells.
        let size = max(min(width, height), longest / 64)
        // A large area (a lake of many kilometres) needs no label placed to half a metre, and
        // one of many vertices costs that many per cell: both bound the work.
        let precision = max(precision, longest / 10_000)
        let vertices = plane.reduce(0) { $0 + $1.count }
        let distance = { (x: Double, y: Double) in signedDistance(x, y, plane) }
        func cell(_ x: Double, _ y: Double, _ half: Double) -> Cell {
            cells += 1
            let d = distance(x, y)
            return Cell(x: x, y: y, half: half, distance: d, potential: d + half * 2.squareRoot())
        }
        var queue = CellQueue()
        let half = size / 2
        var y = -height / 2
        while y < height / 2 {
            var x = -width / 2
            while x < width / 2 {
                queue.push(cell(x + half, y + half, half))
                x += size
            }
            y += size
        }
        var best = cell(centroid(plane[0]).x, centroid(plane[0]).y, 0)
        let middle = cell(0, 0, 0)
        if middle.distance > best.distance { best = middle }
        // Cells looked at: ample for the precision on anything a POI file holds, and at most some
        // 40 million edge distances however many vertices the rings have.
        var budget = min(20_000, max(64, 40_000_000 / max(vertices, 1)))
        while let next = queue.pop(), budget > 0 {
            budget -= 1
            if next.distance > best.distance { best = next }
            guard next.potential - best.distance > precision else { continue }
            let quarter = next.half / 2
            for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
                queue.push(cell(next.x + dx * quarter, next.y + dy * quarter, quarter))
            }
        }
        guard best.distance > 0 else { return nil }
        return (
            origin.latitude + best.y / metresPerDegree, origin.longitude + best.x / xScale, best.distance
        )
    }

    /// A square cell: its centre, half its side, its centre's distance from the edges (negative
    /// outside) and the most any point in it can have.
    struct Cell {
        var x: Double
        var y: Double
        var half: Double
        var distance: Double
        var potential: Double
    }

    /// The cells still to look at, the one with the most potential first (a binary heap).
    struct CellQueue {
        private var cells: [Cell] = []

        mutating func push(_ cell: Cell) {
            cells.append(cell)
            var child = cells.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard cells[child].potential > cells[parent].potential else { break }
                cells.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> Cell? {
            guard !cells.isEmpty else { return nil }
            cells.swapAt(0, cells.count - 1)
            let top = cells.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var largest = parent
                if left < cells.count && cells[left].potential > cells[largest].potential { largest = left }
                if right < cells.count && cells[right].potential > cells[largest].potential { largest = right }
                if largest == parent { break }
                cells.swapAt(parent, largest)
                parent = largest
            }
            return top
        }
    }

    /// The distance from (`x`, `y`) to the nearest edge of `rings`, negative outside (even-odd:
    /// inside the outline and outside every hole).
    static func signedDistance(_ x: Double, _ y: Double, _ rings: [[(x: Double, y: Double)]]) -> Double {
        var inside = false
        var nearest = Double.infinity
        for ring in rings where ring.count >= 2 {
            var previous = ring[ring.count - 1]
            for point in ring {
                if (point.y > y) != (previous.y > y)
                    && x < (previous.x - point.x) * (y - point.y) / (previous.y - point.y) + point.x
                {
                    inside.toggle()
                }
                nearest = min(nearest, segmentDistanceSquared(x, y, point, previous))
                previous = point
            }
        }
        return (inside ? 1 : -1) * nearest.squareRoot()
    }

    private static func segmentDistanceSquared(
        _ x: Double, _ y: Double, _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)
    ) -> Double {
        var (px, py) = a
        let (dx, dy) = (b.x - a.x, b.y - a.y)
        if dx != 0 || dy != 0 {
            let t = ((x - a.x) * dx + (y - a.y) * dy) / (dx * dx + dy * dy)
            if t > 1 {
                (px, py) = b
            } else if t > 0 {
                px += dx * t
                py += dy * t
            }
        }
        return (x - px) * (x - px) + (y - py) * (y - py)
    }

    /// The area centroid of a ring (its first vertex for a ring without area).
    private static func centroid(_ ring: [(x: Double, y: Double)]) -> (x: Double, y: Double) {
        var area = 0.0
        var x = 0.0
        var y = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            let cross = point.x * previous.y - previous.x * point.y
            x += (point.x + previous.x) * cross
            y += (point.y + previous.y) * cross
            area += cross * 3
            previous = point
        }
        return area == 0 ? ring[0] : (x / area, y / area)
    }

    /// The area of a ring in square degrees (its size against other rings' of one MultiPolygon).
    static func area(_ ring: Ring) -> Double {
        guard ring.count >= 3 else { return 0 }
        var sum = 0.0
        var previous = ring[ring.count - 1]
        for point in ring {
            sum += (previous.longitude - point.longitude) * (previous.latitude + point.latitude)
            previous = point
        }
        return abs(sum) / 2
    }
}
