/// A lens distortion model from OpenCV, applied to normalised image coordinates (x′ = X/Z, y′ = Y/Z).
///
/// With r² = x′² + y′²:
/// - plumb_bob: radial = 1 + k1r² + k2r⁴ + k3r⁶;
/// - rational_polynomial: the same radial divided by 1 + k4r² + k5r⁴ + k6r⁶;
///
/// then x″ = x′·radial + 2p1x′y′ + p2(r² + 2x′²) and y″ = y′·radial + p1(r² + 2y′²) + 2p2x′y′.
public enum LensDistortion: Hashable, Sendable {
    /// An ideal pinhole.
    case none
    /// OpenCV's five-coefficient model (ROS `plumb_bob`).
    case plumbBob(k1: Double, k2: Double, p1: Double, p2: Double, k3: Double)
    /// OpenCV's eight-coefficient model (ROS `rational_polynomial`).
    case rationalPolynomial(
        k1: Double, k2: Double, p1: Double, p2: Double, k3: Double, k4: Double, k5: Double, k6: Double)

    /// The radial factor at squared radius `r2`.
    func radial(_ r2: Double) -> Double {
        switch self {
        case .none:
            return 1
        case .plumbBob(let k1, let k2, _, _, let k3):
            return 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
        case .rationalPolynomial(let k1, let k2, _, _, let k3, let k4, let k5, let k6):
            return (1 + r2 * (k1 + r2 * (k2 + r2 * k3))) / (1 + r2 * (k4 + r2 * (k5 + r2 * k6)))
        }
    }

    /// The tangential coefficients.
    var tangential: (p1: Double, p2: Double) {
        switch self {
        case .none: (0, 0)
        case .plumbBob(_, _, let p1, let p2, _), .rationalPolynomial(_, _, let p1, let p2, _, _, _, _): (p1, p2)
        }
    }

    /// Distorts a normalised point.
    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let r2 = x * x + y * y
        let radial = radial(r2)
        let (p1, p2) = tangential
        return (
            x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x), y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        )
    }

    /// The undistorted radius up to which the radial mapping r ↦ r·radial(r²) keeps increasing.
    ///
    /// Beyond it the polynomial folds back, and far off-axis points would land inside the image; the
    /// geometry spec counts them as not in view. Found by scanning out to r = 20 (87° off axis) in
    /// steps of 0.0005, then bisecting the first step where the mapping stops rising (or the rational
    /// model's denominator reaches zero). Infinity when it rises all the way.
    var monotonicRadius: Double {
        if case .none = self { return .infinity }
        func mapped(_ r: Double) -> Double? {
            let r2 = r * r
            if case .rationalPolynomial(_, _, _, _, _, let k4, let k5, let k6) = self,
                1 + r2 * (k4 + r2 * (k5 + r2 * k6)) <= 0
            {
                return nil
            }
            return r * radial(r2)
        }
        let step = 0.0005
        var previous = 0.0
        var r = step
        while r <= 20 {
            guard let value = mapped(r), value > previous else {
                var low = r - step
                var high = r
                for _ in 0..<60 {
                    let middle = (low + high) / 2
                    if let value = mapped(middle), let before = mapped(middle - 1e-9), value > before {
                        low = middle
                    } else {
                        high = middle
                    }
                }
                return low
            }
            previous = value
            r += step
        }
        return .infinity
    }
}
