import Foundation

/// What a banner's tokens stand for, for one frame; nil shows as `–`.
public struct BannerValues: Hashable, Sendable {
    /// The frame's time.
    public var time: Date?
    /// Degrees.
    public var latitude: Double?
    /// Degrees.
    public var longitude: Double?
    /// Metres (as the position gives it).
    public var altitude: Double?
    /// Degrees clockwise from true north.
    public var heading: Double?
    /// Metres per second.
    public var speed: Double?
    /// The frame's number.
    public var frame: Int?

    /// Creates values.
    public init(
        time: Date? = nil, latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil,
        heading: Double? = nil, speed: Double? = nil, frame: Int? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.heading = heading
        self.speed = speed
        self.frame = frame
    }
}
