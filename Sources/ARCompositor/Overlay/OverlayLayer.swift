/// A layer of the overlay that a style can turn off.
public enum OverlayLayer: String, Hashable, Sendable, CaseIterable, Codable {
    /// The route's ribbon on the ground.
    case route
    /// The arrow on the ground at the next manoeuvre.
    case manoeuvreArrow = "manoeuvre-arrow"
    /// POI markers.
    case markers
    /// POI labels (name and distance).
    case labels
    /// Arrows at the border for POIs out of view.
    case edgeArrows = "edge-arrows"
    /// The navigation panel (next instruction, remaining distance and time).
    case panel
    /// The information banner.
    case banner
}
