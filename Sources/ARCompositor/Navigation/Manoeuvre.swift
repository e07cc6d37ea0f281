/// A point on a route where the traveller turns (or arrives).
public struct Manoeuvre: Hashable, Sendable {
    /// What to do.
    public var kind: ManoeuvreKind
    /// The turn in degrees, positive to the right (−180…180); 0 for ``ManoeuvreKind/arrive``.
    public var turn: Double
    /// Metres from the route's start, along it.
    public var distanceAlongRoute: Double
    /// Where, in degrees.
    public var latitude: Double
    /// Where, in degrees.
    public var longitude: Double

    /// Creates a manoeuvre.
    public init(kind: ManoeuvreKind, turn: Double, distanceAlongRoute: Double, latitude: Double, longitude: Double) {
        self.kind = kind
        self.turn = turn
        self.distanceAlongRoute = distanceAlongRoute
        self.latitude = latitude
        self.longitude = longitude
    }
}
