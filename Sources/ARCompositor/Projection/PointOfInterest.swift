/// A geotagged point to show in the frame, as a GeoJSON Point feature describes it.
public struct PointOfInterest: Hashable, Sendable {
    /// The feature's `id` member, else `properties.id`, else its index in the file; always a string.
    public var id: String
    /// `properties.name`, else `properties.title`, else the id. Kept whole; shortening is for display.
    public var name: String
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// Metres above the WGS84 ellipsoid, or nil when the file gives none (the POI stands on the ground).
    public var altitude: Double?
    /// `properties.category`, such as `amenity=cafe`.
    public var category: String?
    /// `properties.color`, `#rrggbb`.
    public var color: String?
    /// `properties.icon`.
    public var icon: String?

    /// Creates a point of interest.
    public init(
        id: String, name: String, latitude: Double, longitude: Double, altitude: Double? = nil, category: String? = nil,
        color: String? = nil, icon: String? = nil
    ) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.category = category
        self.color = color
        self.icon = icon
    }
}
