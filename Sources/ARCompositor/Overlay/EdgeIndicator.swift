/// A point of interest outside the field of view, shown as an arrow at the frame's border
/// pointing the way, with its name and distance.
public struct EdgeIndicator: Hashable, Sendable {
    /// The POI.
    public var pointOfInterest: PointOfInterest
    /// The arrow's tip, on the border (inset by the layout's margin).
    public var position: SIMD2<Double>
    /// The direction it points, in radians on screen (0 = right, π/2 = down).
    public var angle: Double
    /// Metres from the camera.
    public var distance: Double
    /// The name and distance as drawn: `Name · 11 km` (the name isolated as a label's is, see
    /// ``PlacedLabel/text``).
    public var text: String
}
