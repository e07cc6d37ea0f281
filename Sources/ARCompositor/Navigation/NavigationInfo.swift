import Foundation

/// Where the traveller is on a route and what comes next: what the navigation panel shows.
public struct NavigationInfo: Hashable, Sendable {
    /// The route's id.
    public var routeID: String
    /// The position snapped to the route.
    public var snap: RouteSnap
    /// The route's length in metres.
    public var routeLength: Double
    /// Metres left along the route from the snapped position.
    public var remainingDistance: Double
    /// Seconds left at the smoothed speed, or nil when the speed is unknown or too low.
    public var remainingTime: Double?
    /// The next manoeuvre ahead (``ManoeuvreKind/arrive`` when none is left).
    public var nextManoeuvre: Manoeuvre
    /// Metres along the route to ``nextManoeuvre``.
    public var distanceToManoeuvre: Double
    /// The traveller is further from the route than the threshold allows.
    public var isOffRoute: Bool

    /// Creates navigation info.
    public init(
        routeID: String, snap: RouteSnap, routeLength: Double, remainingDistance: Double, remainingTime: Double?,
        nextManoeuvre: Manoeuvre, distanceToManoeuvre: Double, isOffRoute: Bool
    ) {
        self.routeID = routeID
        self.snap = snap
        self.routeLength = routeLength
        self.remainingDistance = remainingDistance
        self.remainingTime = remainingTime
        self.nextManoeuvre = nextManoeuvre
        self.distanceToManoeuvre = distanceToManoeuvre
        self.isOffRoute = isOffRoute
    }

    /// The instruction: `Turn left in 120 m`, `Bear right now` (under 10 m), `Arrive in 300 m`, or
    /// `Off route: 85 m away` when off the route.
    public func instruction(units: DistanceUnits = .metric) -> String {
        if isOffRoute { return "Off route: \(units.format(snap.distanceFromRoute)) away" }
        let phrase = nextManoeuvre.kind.phrase
        return distanceToManoeuvre < 10 ? "\(phrase) now" : "\(phrase) in \(units.format(distanceToManoeuvre))"
    }

    /// The remaining distance and time: `2.3 km · 6 min`, `850 m · 1 h 05 min`, or the distance
    /// alone when the time is unknown.
    public func summary(units: DistanceUnits = .metric) -> String {
        let distance = units.format(remainingDistance)
        guard let seconds = remainingTime else { return distance }
        return "\(distance) · \(Self.duration(seconds))"
    }

    /// `<1 min`, `6 min`, `1 h 05 min`.
    static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes < 1 { return "<1 min" }
        if minutes < 60 { return "\(minutes) min" }
        return String(format: "%d h %02d min", minutes / 60, minutes % 60)
    }
}
