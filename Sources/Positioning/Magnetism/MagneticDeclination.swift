import ArcaptureCore
import Foundation

/// The angle from true north to magnetic north at a place and time, east positive, from the
/// built-in World Magnetic Model valid then: a magnetic heading plus it is a true heading.
public struct MagneticDeclination: Sendable, Hashable, CustomStringConvertible {
    /// Why there is no declination: a time no built-in model covers, or a geographic pole.
    public struct Unavailable: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is missing, for a message: "no World Magnetic Model covers 2008-05-01 …".
        public let description: String
    }

    /// Degrees, east of true north positive.
    public let degrees: Double
    /// The model it came from: `WMM2025`.
    public let model: String

    /// Creates a declination.
    public init(degrees: Double, model: String) {
        self.degrees = degrees
        self.model = model
    }

    /// The declination at a geodetic position (height above the ellipsoid, which matters little:
    /// 0.4° at 100 km) and a UTC time.
    ///
    /// - Throws: ``Unavailable`` before 2010 or from 2030 (no built-in model), and at the poles.
    public static func at(latitude: Double, longitude: Double, heightMetres: Double = 0, time: Date) throws(Unavailable)
        -> MagneticDeclination
    {
        guard let model = WorldMagneticModel.valid(at: time) else {
            let span = WorldMagneticModel.builtIn
            let from = span.first.map { Int($0.epoch) } ?? 0
            let to = span.last.map { Int($0.epoch) + 5 } ?? 0
            throw Unavailable(
                description: "no World Magnetic Model covers \(UTCTime.format(time).prefix(10)) "
                    + "(the built-in ones span \(from) to \(to))")
        }
        guard
            let degrees = model.declination(
                latitude: latitude, longitude: longitude, heightMetres: heightMetres,
                year: WorldMagneticModel.decimalYear(time))
        else { throw Unavailable(description: "the declination is undefined at the geographic poles") }
        return MagneticDeclination(degrees: degrees, model: model.name)
    }

    /// A magnetic heading (degrees clockwise from magnetic north) from true north, in [0, 360).
    public func trueHeading(fromMagnetic magnetic: Double) -> Double {
        CompassDegrees.wrapped(magnetic + degrees)
    }

    /// "9.9° E (WMM2020)".
    public var description: String {
        String(format: "%.1f° %@ (%@)", abs(degrees), degrees < 0 ? "W" : "E", model)
    }
}
