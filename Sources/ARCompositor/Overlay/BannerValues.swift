import Foundation

/// What a banner's tokens stand for, for one frame; nil shows as `–`.
public struct BannerValues: Hashable, Sendable {
    /// The frame's time.
    public var time: Date?
    /// Seconds east of UTC to show ``time`` in (the zone the footage stated, so the banner shows
    /// what its camera recorded); nil: the zone `TZ` names.
    public var utcOffset: Int?
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
        heading: Double? = nil, speed: Double? = nil, frame: Int? = nil, utcOffset: Int? = nil
    ) {
        self.time = time
        self.utcOffset = utcOffset
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.heading = heading
        self.speed = speed
        self.frame = frame
    }
}
