/// Which way is up on a map view.
public enum MapOrientation: String, Sendable, Hashable {
    /// North at the top: the user's arrow turns with the heading.
    case northUp = "north-up"
    /// The heading at the top: the map turns, the arrow points up.
    case headingUp = "heading-up"
}
