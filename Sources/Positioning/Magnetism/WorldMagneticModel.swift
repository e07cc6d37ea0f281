import Foundation

/// The World Magnetic Model (NOAA NCEI and BGS, public domain): the Earth's main magnetic field as
/// spherical harmonics of degree and order 12, one model per five years. arcapture uses it for the
/// declination, the angle from true north to magnetic north, which turns a magnetic heading (a
/// phone's `GPSImgDirectionRef M`, an IMU's magnetometer, NMEA HDM) into a true one.
///
/// Written here rather than linked: no Debian package carries the model (GeographicLib's
/// `MagneticModel` is C++ and downloads its data at install time), and the computation is the
/// short one NOAA's technical report gives (geodetic to geocentric coordinates, Schmidt
/// semi-normalised Legendre functions, the field's north and east components). It is checked
/// against NOAA's published test values for WMM2025 and against pygeomag (an independent Python
/// implementation) for the older models (`WorldMagneticModelTests`).
public struct WorldMagneticModel: Sendable {
    /// One Gauss coefficient pair and its secular variation: degree, order, g and h in nT, their
    /// change in nT per year.
    public typealias Coefficient = (n: Int, m: Int, g: Double, h: Double, gDot: Double, hDot: Double)

    /// The model's name as NOAA gives it: `WMM2025`.
    public let name: String
    /// The decimal year its coefficients are for; it is valid for five years from it.
    public let epoch: Double
    private let coefficients: [Coefficient]

    /// The highest degree of the expansion.
    private static let degree = 12
    /// The geomagnetic reference radius, km.
    private static let referenceRadius = 6371.2
    /// WGS 84's semi-major axis (km) and first eccentricity squared.
    private static let semiMajorAxis = 6378.137
    private static let eccentricitySquared = 1 / 298.257223563 * (2 - 1 / 298.257223563)

    /// Creates a model from its coefficients (NOAA's `WMM.COF` rows).
    public init(name: String, epoch: Double, coefficients: [Coefficient]) {
        self.name = name
        self.epoch = epoch
        self.coefficients = coefficients
    }

    /// The decimal years the model is valid for: its epoch to five years later.
    public var validity: Range<Double> { epoch..<(epoch + 5) }

    /// The built-in model valid at `date`, or nil before the oldest or after the newest.
    public static func valid(at date: Date) -> WorldMagneticModel? {
        let year = decimalYear(date)
        return builtIn.last { $0.validity.contains(year) }
    }

    /// `date` as a decimal year (UTC), as the model counts time: 2025.5 is 2 July 2025 at noon.
    public static func decimalYear(_ date: Date) -> Double {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let year = calendar.component(.year, from: date)
        guard let start = calendar.date(from: DateComponents(year: year, month: 1, day: 1)),
            let end = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))
        else { return Double(year) }
        return Double(year) + date.timeIntervalSince(start) / end.timeIntervalSince(start)
    }

    /// The declination in degrees (east of true north positive) at a geodetic position and
    /// height above the WGS 84 ellipsoid, at a decimal year: a magnetic heading plus it is a true
    /// heading. Nil at the geographic poles, where it is undefined.
    public func declination(latitude: Double, longitude: Double, heightMetres: Double = 0, year: Double) -> Double? {
        guard abs(latitude) < 89.9999 else { return nil }
        let field = northAndEast(latitude: latitude, longitude: longitude, heightKm: heightMetres / 1000, year: year)
        return atan2(field.east, field.north) * 180 / .pi
    }

    /// The field's north and east components (nT) on the ellipsoid's frame.
    private func northAndEast(latitude: Double, longitude: Double, heightKm: Double, year: Double) -> (
        north: Double, east: Double
    ) {
        let degree = Self.degree
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        // Geodetic to geocentric spherical coordinates (the report's equations 7 and 8).
        let radiusOfCurvature = Self.semiMajorAxis / (1 - Self.eccentricitySquared * sin(phi) * sin(phi)).squareRoot()
        let p = (radiusOfCurvature + heightKm) * cos(phi)
        let z = (radiusOfCurvature * (1 - Self.eccentricitySquared) + heightKm) * sin(phi)
        let r = (p * p + z * z).squareRoot()
        let geocentricLatitude = asin(z / r)
        // Colatitude θ: cos θ = sin φ', sin θ = cos φ'.
        let cosTheta = sin(geocentricLatitude)
        let sinTheta = cos(geocentricLatitude)

        // Gauss-normalised associated Legendre functions and their θ derivatives by recursion,
        // then scaled to Schmidt semi-normalisation (the coefficients' normalisation).
        let size = degree + 1
        var legendre = [Double](repeating: 0, count: size * size)
        var derivative = [Double](repeating: 0, count: size * size)
        legendre[0] = 1
        for n in 1...degree {
            for m in 0...n {
                let index = n * size + m
                if n == m {
                    let previous = (n - 1) * size + (m - 1)
                    legendre[index] = sinTheta * legendre[previous]
                    derivative[index] = sinTheta * derivative[previous] + cosTheta * legendre[previous]
                } else {
                    let previous = (n - 1) * size + m
                    var k = 0.0
                    var twoBack = (legendre: 0.0, derivative: 0.0)
                    if n > 1 {
                        k = Double((n - 1) * (n - 1) - m * m) / Double((2 * n - 1) * (2 * n - 3))
                        if m <= n - 2 {
                            twoBack = (legendre[(n - 2) * size + m], derivative[(n - 2) * size + m])
                        }
                    }
                    legendre[index] = cosTheta * legendre[previous] - k * twoBack.legendre
                    derivative[index] =
                        cosTheta * derivative[previous] - sinTheta * legendre[previous] - k * twoBack.derivative
                }
            }
        }
        var schmidt = [Double](repeating: 0, count: size * size)
        schmidt[0] = 1
        for n in 1...degree {
            schmidt[n * size] = schmidt[(n - 1) * size] * Double(2 * n - 1) / Double(n)
            for m in 1...n {
                let factor = Double((n - m + 1) * (m == 1 ? 2 : 1)) / Double(n + m)
                schmidt[n * size + m] = schmidt[n * size + m - 1] * factor.squareRoot()
            }
        }

        // Br, Bθ and Bφ summed over the time-adjusted coefficients.
        let elapsed = year - epoch
        var radial = 0.0
        var theta = 0.0
        var phiComponent = 0.0
        for coefficient in coefficients where coefficient.n >= 1 && coefficient.n <= degree {
            let n = coefficient.n
            let m = coefficient.m
            let index = n * size + m
            let g = (coefficient.g + elapsed * coefficient.gDot) * schmidt[index]
            let h = (coefficient.h + elapsed * coefficient.hDot) * schmidt[index]
            let ratio = pow(Self.referenceRadius / r, Double(n + 2))
            let cosine = cos(Double(m) * lambda)
            let sine = sin(Double(m) * lambda)
            radial += Double(n + 1) * ratio * (g * cosine + h * sine) * legendre[index]
            theta -= ratio * (g * cosine + h * sine) * derivative[index]
            phiComponent += ratio * Double(m) * (-g * sine + h * cosine) * legendre[index]
        }
        let geocentricNorth = -theta
        let east = sinTheta > 0 ? -phiComponent / sinTheta : 0
        let geocentricDown = -radial
        // Back to the ellipsoid's frame: rotate by the difference of the two latitudes.
        let difference = geocentricLatitude - phi
        let north = geocentricNorth * cos(difference) - geocentricDown * sin(difference)
        return (north, east)
    }
}
