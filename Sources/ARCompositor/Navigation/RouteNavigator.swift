import Foundation

/// Follows a traveller along a route, fix by fix: snaps each position to the route, keeps the
/// progress, smooths the speed, tells off-route from on-route, and ends at arrival.
///
/// After arrival ``update(latitude:longitude:speed:horizontalAccuracy:time:)`` returns nil, as the
/// navigation info of the geo-AR SDK resets to nil when navigation stops; ``reset()`` starts over.
/// A value type: each pipeline keeps its own.
public struct RouteNavigator: Sendable {
    /// The route.
    public let route: NavigationRoute
    /// The thresholds.
    public let options: NavigationOptions
    /// The traveller has arrived; navigation has ended.
    public private(set) var hasArrived = false
    private var progress: Double?
    private var speed: Double?
    private var lastTime: Double?
    private var offRoute = false

    /// Creates a navigator at the start of `route`.
    public init(route: NavigationRoute, options: NavigationOptions = NavigationOptions()) {
        self.route = route
        self.options = options
    }

    /// Starts over: no progress, not arrived.
    public mutating func reset() {
        hasArrived = false
        progress = nil
        speed = nil
        lastTime = nil
        offRoute = false
    }

    /// Takes one fix and returns where the traveller is on the route, or nil once arrived.
    ///
    /// - Parameters:
    ///   - latitude: the fix, in degrees.
    ///   - longitude: the fix, in degrees.
    ///   - speed: ground speed in m/s, when known.
    ///   - horizontalAccuracy: the fix's horizontal error in metres, when known; it widens the
    ///     off-route threshold (by up to 50 m) so a poor fix does not read as leaving the route.
    ///   - time: the fix's time in seconds (any epoch), for smoothing the speed over time.
    public mutating func update(
        latitude: Double, longitude: Double, speed: Double? = nil, horizontalAccuracy: Double? = nil,
        time: Double? = nil
    ) -> NavigationInfo? {
        guard !hasArrived else { return nil }
        let snap = route.snap(latitude: latitude, longitude: longitude, progress: progress)
        let threshold = options.offRouteDistance + min(max(horizontalAccuracy ?? 0, 0), 50)
        // Hysteresis: back on the route only well inside the threshold, so a fix wandering at its
        // edge does not flicker.
        offRoute = snap.distanceFromRoute > (offRoute ? threshold * 0.75 : threshold)
        if !offRoute { progress = snap.distanceAlongRoute }
        smooth(speed: speed, time: time)
        let remaining = max(0, route.length - snap.distanceAlongRoute)
        // At the end in a straight line counts too (a route ending in a car park), once past half
        // way, so that a round trip does not end where it starts.
        let atEnd =
            route.distanceToEnd(latitude: latitude, longitude: longitude) <= options.arrivalDistance
            && remaining < route.length / 2
        if atEnd || (!offRoute && remaining <= options.arrivalDistance) {
            hasArrived = true
            return nil
        }
        let next =
            route.manoeuvres.first { $0.distanceAlongRoute > snap.distanceAlongRoute }
            ?? route.manoeuvres[route.manoeuvres.count - 1]
        let time = self.speed.flatMap { $0 >= options.minimumSpeed ? remaining / $0 : nil }
        return NavigationInfo(
            routeID: route.route.id, snap: snap, routeLength: route.length, remainingDistance: remaining,
            remainingTime: time, nextManoeuvre: next,
            distanceToManoeuvre: max(0, next.distanceAlongRoute - snap.distanceAlongRoute), isOffRoute: offRoute)
    }

    /// Exponential smoothing with a time constant of ``NavigationOptions/speedSmoothing`` seconds
    /// (a fixed weight when fixes carry no time).
    private mutating func smooth(speed newSpeed: Double?, time: Double?) {
        guard let newSpeed, newSpeed.isFinite, newSpeed >= 0 else { return }
        guard let current = speed else {
            speed = newSpeed
            lastTime = time
            return
        }
        var weight = 0.3
        if let time, let lastTime {
            weight = 1 - exp(-max(0, time - lastTime) / max(options.speedSmoothing, 0.001))
        }
        speed = current + (newSpeed - current) * weight
        lastTime = time ?? lastTime
    }
}
