/// A point of interest's marker where the layout put it.
public struct PlacedMarker: Hashable, Sendable {
    /// The POI.
    public var pointOfInterest: PointOfInterest
    /// The marker's centre in pixels.
    public var center: SIMD2<Double>
    /// Its radius in pixels (larger when nearer, clamped).
    public var radius: Double
    /// Metres from the camera.
    public var distance: Double
    /// Whether the user selected it (drawn highlighted, labelled first).
    public var isSelected: Bool
}
