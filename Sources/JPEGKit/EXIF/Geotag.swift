/// Where a photo was taken and which way it looked, as its EXIF GPS block says.
public struct Geotag: Hashable, Sendable {
    /// Degrees, north positive.
    public var latitude: Double
    /// Degrees, east positive.
    public var longitude: Double
    /// Metres above mean sea level (GPSAltitude), when given.
    public var altitudeMeanSeaLevel: Double?
    /// Degrees clockwise from north the camera faced (GPSImgDirection), when given.
    public var imageDirection: Double?
    /// Whether ``imageDirection`` is from magnetic north (GPSImgDirectionRef `M`) rather than true.
    public var directionIsMagnetic: Bool
    /// A DJI photo's gimbal and aircraft attitude from its XMP, when it has one.
    public var drone: DroneAttitude?

    /// Creates a geotag.
    public init(
        latitude: Double, longitude: Double, altitudeMeanSeaLevel: Double? = nil, imageDirection: Double? = nil,
        directionIsMagnetic: Bool = false, drone: DroneAttitude? = nil
    ) {
        self.drone = drone
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeanSeaLevel = altitudeMeanSeaLevel
        self.imageDirection = imageDirection
        self.directionIsMagnetic = directionIsMagnetic
    }
}
