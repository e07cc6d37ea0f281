/// Thresholds for navigating a route.
public struct NavigationOptions: Hashable, Sendable {
    /// Further than this from the route (metres, plus the fix's horizontal accuracy up to 50 m) is
    /// off route. Default 40 m: a phone or USB GPS is within 5–15 m, a road is up to 30 m wide.
    public var offRouteDistance: Double = 40
    /// Within this of the route's end (metres) is arrival; navigation then ends. Default 15 m.
    public var arrivalDistance: Double = 15
    /// How far before and after a vertex (metres) the route's direction is measured to find its
    /// turn: long enough that a road's gentle bend drawn with many vertices is not a manoeuvre,
    /// short enough that two junctions are not merged. Default 20 m.
    public var turnWindow: Double = 20
    /// Speeds below this (m/s) give no remaining time: a standing traveller's ETA is unknown.
    public var minimumSpeed: Double = 0.5
    /// The speed used for the remaining time is smoothed over about this many seconds.
    public var speedSmoothing: Double = 10

    /// Creates the defaults.
    public init() {}
}
