/// The two kinds of view a session feeds, one of each at a time.
public enum ViewKind: String, Sendable, Hashable, CustomStringConvertible {
    /// The camera's view with the overlay drawn in it: ``GeoARView``.
    case augmentedReality = "AR view"
    /// A plan view of the same session: POIs, the route, the user's position, heading and track.
    case map = "map view"

    /// `AR view` or `map view`.
    public var description: String { rawValue }
}
