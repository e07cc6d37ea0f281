/// How heading is derived from the direction of travel.
public struct CourseHeadingOptions: Hashable, Sendable {
    /// Below this speed (m/s) the course is noise, so the heading is held. Default 1 m/s (3.6 km/h).
    public var minimumSpeed: Double
    /// The smoothing time constant in seconds: the heading follows a turn with this lag (live) or
    /// is averaged over about this much either side (recorded tracks). Default 2 s; 0 turns it off.
    public var smoothingTime: Double
    /// The speed error (m/s) that sets the heading's accuracy: atan(error / speed). Default 0.3 m/s,
    /// typical of a consumer receiver's Doppler speed.
    public var speedError: Double

    /// Creates options.
    public init(minimumSpeed: Double = 1, smoothingTime: Double = 2, speedError: Double = 0.3) {
        self.minimumSpeed = minimumSpeed
        self.smoothingTime = smoothingTime
        self.speedError = speedError
    }
}
