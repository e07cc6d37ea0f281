import Foundation

/// A WGS84 position: latitude and longitude in degrees, altitude in metres above the ellipsoid.
public struct GeodeticCoordinate: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich, −180…180.
    public var longitude: Double
    /// Metres above the WGS84 ellipsoid, when known.
    public var altitude: Double?

    /// Creates a coordinate; returns nil when latitude or longitude is out of range or not finite.
    public init?(latitude: Double, longitude: Double, altitude: Double? = nil) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude),
            altitude?.isFinite ?? true
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Parses `LAT,LON` or `LAT,LON,ALT` (decimal degrees, metres), as the CLI's `--location` takes it.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 || parts.count == 3, let latitude = Double(parts[0]), let longitude = Double(parts[1])
        else { return nil }
        var altitude: Double?
        if parts.count == 3 {
            guard let value = Double(parts[2]) else { return nil }
            altitude = value
        }
        self.init(latitude: latitude, longitude: longitude, altitude: altitude)
    }

    /// `60.1699,24.9384` or `60.1699,24.9384,12.0`.
    public var description: String {
        "\(latitude),\(longitude)" + (altitude.map { ",\($0)" } ?? "")
    }
}
