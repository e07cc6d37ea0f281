import Foundation

/// A GPX `wpt`, `trkpt` or `rtept`: a position with its optional elevation, time and name.
public struct GPXPoint: Hashable, Sendable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double
    /// `<ele>`: metres, which GPS units write above mean sea level.
    public var elevation: Double?
    /// `<time>`, UTC.
    public var time: Date?
    /// `<name>`, for waypoints.
    public var name: String?
    /// The line of the point's start tag, for messages.
    public var line: Int

    /// Creates a point.
    public init(
        latitude: Double, longitude: Double, elevation: Double? = nil, time: Date? = nil, name: String? = nil,
        line: Int = 0
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.time = time
        self.name = name
        self.line = line
    }
}
