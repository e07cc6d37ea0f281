/// Buffers for ``GroundGeometry``, kept between frames by the compositor so drawing the route
/// allocates nothing once they have grown. The result of each call is ``shape`` (one contour,
/// empty when nothing is in view).
final class GroundScratch {
    var vertices: [(latitude: Double, longitude: Double)] = []
    var points: [SIMD2<Double>] = []
    var left: [SIMD2<Double>] = []
    var right: [SIMD2<Double>] = []
    var outline: [SIMD2<Double>] = []
    var clipA: [SIMD3<Double>] = []
    var clipB: [SIMD3<Double>] = []
    var shape = Shape(contours: [[]])
}
