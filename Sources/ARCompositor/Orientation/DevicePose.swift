/// Where the camera is and where it points: a WGS84 position (ellipsoidal altitude) and an
/// orientation.
public struct DevicePose: Hashable, Sendable {
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Metres above the WGS84 ellipsoid.
    public var altitude: Double
    /// Heading, pitch and roll.
    public var orientation: DeviceOrientation

    /// Creates a pose.
    public init(latitude: Double, longitude: Double, altitude: Double, orientation: DeviceOrientation) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.orientation = orientation
    }

    /// The East-North-Up frame at the pose's position.
    public var localFrame: LocalFrame { LocalFrame(latitude: latitude, longitude: longitude, altitude: altitude) }
}
