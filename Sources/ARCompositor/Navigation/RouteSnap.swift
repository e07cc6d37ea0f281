/// Where a position meets a route: the nearest point of the route to it.
public struct RouteSnap: Hashable, Sendable {
    /// The segment (from vertex `segment` to `segment + 1`).
    public var segment: Int
    /// Metres from the route's start to the snapped point, along the route.
    public var distanceAlongRoute: Double
    /// Metres from the position to the snapped point, horizontally.
    public var distanceFromRoute: Double
    /// The snapped point, in degrees.
    public var latitude: Double
    /// The snapped point, in degrees.
    public var longitude: Double

    /// Creates a snap.
    public init(
        segment: Int, distanceAlongRoute: Double, distanceFromRoute: Double, latitude: Double, longitude: Double
    ) {
        self.segment = segment
        self.distanceAlongRoute = distanceAlongRoute
        self.distanceFromRoute = distanceFromRoute
        self.latitude = latitude
        self.longitude = longitude
    }
}
