import Foundation

/// A point in Earth-centred, Earth-fixed coordinates (metres), the bridge between WGS84 positions
/// and a local frame.
public struct ECEFPoint: Hashable, Sendable {
    /// Metres along the axis through the equator at the prime meridian.
    public var x: Double
    /// Metres along the axis through the equator at 90° east.
    public var y: Double
    /// Metres along the polar axis, north positive.
    public var z: Double

    /// Creates a point from its coordinates.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point at a WGS84 latitude and longitude (degrees) and ellipsoidal altitude (metres).
    ///
    /// N = a/√(1−e² sin²φ); X = (N+h)cosφ cosλ; Y = (N+h)cosφ sinλ; Z = (N(1−e²)+h) sinφ.
    public init(latitude: Double, longitude: Double, altitude: Double) {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        let sinPhi = sin(phi)
        let cosPhi = cos(phi)
        let n = WGS84.semiMajorAxis / (1 - WGS84.eccentricitySquared * sinPhi * sinPhi).squareRoot()
        x = (n + altitude) * cosPhi * cos(lambda)
        y = (n + altitude) * cosPhi * sin(lambda)
        z = (n * (1 - WGS84.eccentricitySquared) + altitude) * sinPhi
    }

    /// The WGS84 latitude, longitude (degrees) and ellipsoidal altitude (metres) of this point.
    ///
    /// Bowring's method with three refinements, which is exact to well below a millimetre from the
    /// Earth's centre region outwards (and to the nanometre at the surface); longitude is atan2(y, x)
    /// in (−180, 180].
    public var geodetic: (latitude: Double, longitude: Double, altitude: Double) {
        let a = WGS84.semiMajorAxis
        let e2 = WGS84.eccentricitySquared
        let b = WGS84.semiMinorAxis
        let p = (x * x + y * y).squareRoot()
        let longitude = atan2(y, x) * 180 / .pi
        if p < 1e-9 {  // on the polar axis
            let latitude: Double = z >= 0 ? 90 : -90
            return (latitude, 0, abs(z) - b)
        }
        let secondEccentricity2 = (a * a - b * b) / (b * b)
        var beta = atan2(a * z, b * p)
        var phi = 0.0
        for _ in 0..<3 {
            phi = atan2(z + secondEccentricity2 * b * pow(sin(beta), 3), p - e2 * a * pow(cos(beta), 3))
            beta = atan2((1 - WGS84.flattening) * sin(phi), cos(phi))
        }
        let sinPhi = sin(phi)
        let n = a / (1 - e2 * sinPhi * sinPhi).squareRoot()
        let altitude: Double
        if abs(phi) < .pi / 4 {
            altitude = p / cos(phi) - n
        } else {
            altitude = z / sinPhi - n * (1 - e2)
        }
        return (phi * 180 / .pi, longitude, altitude)
    }

    /// The point as a vector.
    var vector: SIMD3<Double> { SIMD3(x, y, z) }
}
