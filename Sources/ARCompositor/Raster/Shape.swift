import Foundation

/// A filled area as closed contours in pixel coordinates (x right, y down; pixel (i, j) covers
/// [i, i+1) × [j, j+1), so its centre is (i + 0.5, j + 0.5)).
///
/// Every primitive the compositor draws becomes a shape: circles and arcs as fine polygons, holes
/// as contours wound the other way. One exact
/// area-coverage rasteriser then anti-aliases them all the same way.
///
/// Circles use at least 48 segments, which keeps their area within 0.3 % of the true circle's.
public struct Shape: Sendable {
    /// The contours, each implicitly closed.
    public var contours: [[SIMD2<Double>]]

    /// Creates a shape from contours.
    public init(contours: [[SIMD2<Double>]]) { self.contours = contours }

    /// A polygon.
    public static func polygon(_ points: [SIMD2<Double>]) -> Shape { Shape(contours: [points]) }

    /// A filled circle.
    public static func circle(center: SIMD2<Double>, radius: Double) -> Shape {
        Shape(contours: [arc(center: center, radius: radius, from: 0, to: 2 * .pi)])
    }

    /// A circle's outline of stroke `width`, centred on the radius.
    public static func ring(center: SIMD2<Double>, radius: Double, width: Double) -> Shape {
        let outer = arc(center: center, radius: radius + width / 2, from: 0, to: 2 * .pi)
        let inner = arc(center: center, radius: max(0, radius - width / 2), from: 2 * .pi, to: 0)
        return Shape(contours: [outer, inner])
    }

    /// A line from `a` to `b` of `width`, with round caps.
    public static func line(from a: SIMD2<Double>, to b: SIMD2<Double>, width: Double) -> Shape {
        var points: [SIMD2<Double>] = []
        appendLine(from: a, to: b, width: width, into: &points)
        return Shape(contours: [points])
    }

    /// Appends the outline of ``line(from:to:width:)`` to `points` (for callers that reuse a buffer).
    static func appendLine(
        from a: SIMD2<Double>, to b: SIMD2<Double>, width: Double, into points: inout [SIMD2<Double>]
    ) {
        let direction = b - a
        let length = (direction * direction).sum().squareRoot()
        let angle = length > 0 ? atan2(direction.y, direction.x) : 0
        let half = width / 2
        // A capsule: the half circle around b, then the one around a.
        appendArc(center: b, radius: half, from: angle - .pi / 2, to: angle + .pi / 2, into: &points)
        appendArc(center: a, radius: half, from: angle + .pi / 2, to: angle + 3 * .pi / 2, into: &points)
    }

    /// A rectangle with rounded corners of `radius` (clamped to half the shorter side).
    public static func roundedRectangle(x: Double, y: Double, width: Double, height: Double, radius: Double) -> Shape {
        let r = max(0, min(radius, width / 2, height / 2))
        guard r > 0 else {
            return polygon([SIMD2(x, y), SIMD2(x + width, y), SIMD2(x + width, y + height), SIMD2(x, y + height)])
        }
        var points: [SIMD2<Double>] = []
        points += arc(center: SIMD2(x + width - r, y + r), radius: r, from: -.pi / 2, to: 0)
        points += arc(center: SIMD2(x + width - r, y + height - r), radius: r, from: 0, to: .pi / 2)
        points += arc(center: SIMD2(x + r, y + height - r), radius: r, from: .pi / 2, to: .pi)
        points += arc(center: SIMD2(x + r, y + r), radius: r, from: .pi, to: 3 * .pi / 2)
        return Shape(contours: [points])
    }

    /// Points along an arc from angle `start` to `end` (radians, clockwise on screen as y points
    /// down), with enough segments that the polygon's area is within 0.1 % of the circle's.
    static func arc(center: SIMD2<Double>, radius: Double, from start: Double, to end: Double) -> [SIMD2<Double>] {
        var points: [SIMD2<Double>] = []
        appendArc(center: center, radius: radius, from: start, to: end, into: &points)
        return points
    }

    /// Appends the points of ``arc(center:radius:from:to:)`` to `points`.
    static func appendArc(
        center: SIMD2<Double>, radius: Double, from start: Double, to end: Double, into points: inout [SIMD2<Double>]
    ) {
        // A full circle with n segments has area (n/2)·sin(2π/n)·r² ≈ (1 − 2π²/3n²)·πr²: 48 keeps
        // it within 0.3 %, 81 within 0.1 %; large circles get more so their edge stays smooth.
        // Below 2 px of radius (the caps of thin lines) 16 segments stray less than 0.04 px from
        // the circle, which no pixel can show, at a third of the edges.
        let full = radius < 2 ? 16 : max(48, min(256, Int((radius * 4).rounded(.up))))
        let count = max(2, Int((Double(full) * abs(end - start) / (2 * .pi)).rounded(.up)))
        for index in 0...count {
            let angle = start + (end - start) * Double(index) / Double(count)
            points.append(center + SIMD2(cos(angle), sin(angle)) * radius)
        }
    }

    /// The bounding box: minimum and maximum corners.
    var bounds: (min: SIMD2<Double>, max: SIMD2<Double>)? {
        var low = SIMD2(Double.infinity, .infinity)
        var high = SIMD2(-Double.infinity, -.infinity)
        for contour in contours {
            for point in contour {
                low = pointwiseMin(low, point)
                high = pointwiseMax(high, point)
            }
        }
        return low.x <= high.x ? (low, high) : nil
    }
}
