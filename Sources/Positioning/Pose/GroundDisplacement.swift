import Foundation

/// The horizontal displacement between two nearby positions, on a local tangent plane.
///
/// For consecutive fixes (metres to a few hundred metres apart) the equirectangular approximation
/// (east = Δλ·cos φ̄·R, north = Δφ·R with the WGS84 radii of curvature at φ̄) is good to well under
/// 0.1° of bearing and 0.1 % of distance; CaptureKit keeps it here instead of depending on
/// ARCompositor's full geodesy, which builds on CaptureKit.
struct GroundDisplacement {
    var east: Double
    var north: Double

    init(from a: GeodeticCoordinate, to b: GeodeticCoordinate) {
        let a0 = 6_378_137.0
        let e2 = 0.006_694_379_990_14
        let latitude = (a.latitude + b.latitude) / 2 * .pi / 180
        let w = (1 - e2 * sin(latitude) * sin(latitude)).squareRoot()
        let meridian = a0 * (1 - e2) / (w * w * w)
        let primeVertical = a0 / w
        var deltaLongitude = b.longitude - a.longitude
        if deltaLongitude > 180 { deltaLongitude -= 360 }
        if deltaLongitude < -180 { deltaLongitude += 360 }
        east = deltaLongitude * .pi / 180 * primeVertical * cos(latitude)
        north = (b.latitude - a.latitude) * .pi / 180 * meridian
    }

    /// Metres.
    var distance: Double { (east * east + north * north).squareRoot() }

    /// Degrees clockwise from north, 0..<360.
    var bearing: Double {
        CompassDegrees.wrapped(atan2(east, north) * 180 / .pi)
    }
}
