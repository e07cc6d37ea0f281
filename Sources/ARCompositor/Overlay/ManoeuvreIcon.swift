import Foundation

/// The pictogram of a manoeuvre, as navigation panels draw it: a stem rising from the bottom that
/// bends by the turn's angle and ends in an arrowhead; a hook for a U-turn; a target for arrival.
enum ManoeuvreIcon {
    /// The icon's shapes in a `size`×`size` box at (`x`, `y`), each drawn opaque.
    static func shapes(for kind: ManoeuvreKind, turn: Double, x: Double, y: Double, size: Double) -> [Shape] {
        let stroke = size * 0.13
        func point(_ u: Double, _ v: Double) -> SIMD2<Double> { SIMD2(x + u * size, y + v * size) }
        func head(at tip: SIMD2<Double>, direction: SIMD2<Double>) -> Shape {
            let normal = SIMD2(-direction.y, direction.x)
            let base = tip - direction * (size * 0.3)
            return .polygon([tip, base + normal * (size * 0.22), base - normal * (size * 0.22)])
        }
        switch kind {
        case .arrive:
            return [
                .ring(center: point(0.5, 0.5), radius: size * 0.38, width: stroke),
                .circle(center: point(0.5, 0.5), radius: size * 0.17),
            ]
        case .uTurn:
            // Up the right, over the top, down the left (a U-turn to the left, as on
            // right-hand-traffic roads; the mirror image for a right turn back).
            let sign = turn >= 0 ? -1.0 : 1.0
            let right = 0.5 + 0.2 * sign
            let left = 0.5 - 0.2 * sign
            var shapes: [Shape] = [.line(from: point(right, 0.95), to: point(right, 0.4), width: stroke)]
            var previous = point(right, 0.4)
            for step in 1...8 {
                let angle = Double(step) / 8 * .pi
                let next = point(0.5 + 0.2 * sign * cos(angle), 0.4 - 0.2 * sin(angle))
                shapes.append(.line(from: previous, to: next, width: stroke))
                previous = next
            }
            shapes.append(.line(from: previous, to: point(left, 0.55), width: stroke))
            shapes.append(head(at: point(left, 0.8), direction: SIMD2(0, 1)))
            return shapes
        default:
            let radians = turn * .pi / 180
            let direction = SIMD2(sin(radians), -cos(radians))
            let bend = point(0.5, 0.55)
            let tip = bend + direction * (size * 0.45)
            return [
                .line(from: point(0.5, 0.97), to: bend, width: stroke),
                .line(from: bend, to: tip - direction * (size * 0.2), width: stroke),
                head(at: tip, direction: direction),
            ]
        }
    }
}
