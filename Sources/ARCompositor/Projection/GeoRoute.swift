/// A route to draw: a GeoJSON LineString (or one line of a MultiLineString), as WGS84 vertices.
public struct GeoRoute: Hashable, Sendable {
    /// One vertex: latitude and longitude in degrees, ellipsoidal altitude in metres when given.
    public struct Vertex: Hashable, Sendable {
        /// Latitude in degrees.
        public var latitude: Double
        /// Longitude in degrees.
        public var longitude: Double
        /// Metres above the ellipsoid, or nil for the ground.
        public var altitude: Double?

        /// Creates a vertex.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
        }
    }

    /// The route's id, as for points of interest.
    public var id: String
    /// The vertices in order.
    public var vertices: [Vertex]

    /// Creates a route.
    public init(id: String, vertices: [Vertex]) {
        self.id = id
        self.vertices = vertices
    }
}
