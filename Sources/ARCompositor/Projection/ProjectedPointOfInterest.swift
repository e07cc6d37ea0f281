/// Where a point of interest lands in the frame, and where it lies from the device (geometry spec §5).
public struct ProjectedPointOfInterest: Hashable, Sendable {
    /// The point of interest.
    public var pointOfInterest: PointOfInterest
    /// The pixel, or nil when the point is at or behind the near plane or beyond the lens model's
    /// monotonic range.
    public var pixel: PixelPoint?
    /// The camera-frame z (metres along the optical axis; negative behind the camera).
    public var depth: Double
    /// The straight-line distance in metres.
    public var distance: Double
    /// Degrees clockwise from true north, in [0, 360).
    public var bearing: Double
    /// Degrees above the device's horizontal.
    public var elevation: Double
    /// Whether the pixel lies inside the image.
    public var inView: Bool
    /// The altitude used for a point of interest without one (the ground), or nil.
    public var assumedAltitude: Double?

    /// Creates a result.
    public init(
        pointOfInterest: PointOfInterest, pixel: PixelPoint?, depth: Double, distance: Double, bearing: Double,
        elevation: Double, inView: Bool, assumedAltitude: Double?
    ) {
        self.pointOfInterest = pointOfInterest
        self.pixel = pixel
        self.depth = depth
        self.distance = distance
        self.bearing = bearing
        self.elevation = elevation
        self.inView = inView
        self.assumedAltitude = assumedAltitude
    }
}
