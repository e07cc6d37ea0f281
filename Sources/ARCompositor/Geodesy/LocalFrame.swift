import Foundation

/// The East-North-Up frame at a WGS84 position: converts positions to displacements from it and
/// back, in double precision, with no flat-earth shortcut.
///
/// The frame keeps its origin's ECEF coordinates and the rotation to ENU. A point 0.2 m from the
/// origin is still placed to the nanometre: both ECEF positions are around 6.4e6 m, where a double
/// resolves about 1e-9 m, so subtracting them loses nothing that matters.
public struct LocalFrame: Hashable, Sendable {
    /// The origin's latitude in degrees.
    public let latitude: Double
    /// The origin's longitude in degrees.
    public let longitude: Double
    /// The origin's ellipsoidal altitude in metres.
    public let altitude: Double
    private let origin: ECEFPoint
    private let sinLatitude: Double
    private let cosLatitude: Double
    private let sinLongitude: Double
    private let cosLongitude: Double

    /// Creates the frame at a WGS84 position (degrees, metres above the ellipsoid).
    public init(latitude: Double, longitude: Double, altitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        origin = ECEFPoint(latitude: latitude, longitude: longitude, altitude: altitude)
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        sinLatitude = sin(phi)
        cosLatitude = cos(phi)
        sinLongitude = sin(lambda)
        cosLongitude = cos(lambda)
    }

    /// The displacement from the origin to a WGS84 position.
    public func enu(latitude: Double, longitude: Double, altitude: Double) -> ENUVector {
        enu(of: ECEFPoint(latitude: latitude, longitude: longitude, altitude: altitude))
    }

    /// The displacement from the origin to an ECEF point.
    ///
    /// e = −sinλ0·dx + cosλ0·dy; n = −sinφ0·cosλ0·dx − sinφ0·sinλ0·dy + cosφ0·dz;
    /// u = cosφ0·cosλ0·dx + cosφ0·sinλ0·dy + sinφ0·dz.
    public func enu(of point: ECEFPoint) -> ENUVector {
        let dx = point.x - origin.x
        let dy = point.y - origin.y
        let dz = point.z - origin.z
        return ENUVector(
            east: -sinLongitude * dx + cosLongitude * dy,
            north: -sinLatitude * cosLongitude * dx - sinLatitude * sinLongitude * dy + cosLatitude * dz,
            up: cosLatitude * cosLongitude * dx + cosLatitude * sinLongitude * dy + sinLatitude * dz)
    }

    /// The ECEF point at a displacement from the origin (the transpose of ``enu(of:)``).
    public func ecef(of displacement: ENUVector) -> ECEFPoint {
        let e = displacement.east
        let n = displacement.north
        let u = displacement.up
        return ECEFPoint(
            x: origin.x - sinLongitude * e - sinLatitude * cosLongitude * n + cosLatitude * cosLongitude * u,
            y: origin.y + cosLongitude * e - sinLatitude * sinLongitude * n + cosLatitude * sinLongitude * u,
            z: origin.z + cosLatitude * n + sinLatitude * u)
    }
}
