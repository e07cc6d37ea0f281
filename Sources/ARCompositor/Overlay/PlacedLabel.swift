/// A label placed beside (or stacked above) its marker, never overlapping another.
public struct PlacedLabel: Hashable, Sendable {
    /// Index of its marker in ``MarkerLayout/markers``.
    public var markerIndex: Int
    /// The text as drawn: `Name · 1.2 km`, the name between Unicode's first-strong isolate marks
    /// (U+2068, U+2069, not drawn), so a Hebrew or Arabic name reads right to left without turning
    /// the whole label round.
    public var text: String
    /// The label's box: left, top, width, height in pixels.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double
    /// When the label had to move away from its marker: the line to draw from the marker to it.
    public var leader: (from: SIMD2<Double>, to: SIMD2<Double>)?

    /// Creates a label.
    public init(
        markerIndex: Int, text: String, x: Double, y: Double, width: Double, height: Double,
        leader: (from: SIMD2<Double>, to: SIMD2<Double>)? = nil
    ) {
        self.markerIndex = markerIndex
        self.text = text
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.leader = leader
    }

    /// Whether two labels' boxes overlap (touching edges do not).
    public func overlaps(_ other: PlacedLabel) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }

    /// Equal when index, text, box and leader are.
    public static func == (lhs: PlacedLabel, rhs: PlacedLabel) -> Bool {
        lhs.markerIndex == rhs.markerIndex && lhs.text == rhs.text && lhs.x == rhs.x && lhs.y == rhs.y
            && lhs.width == rhs.width && lhs.height == rhs.height && lhs.leader?.from == rhs.leader?.from
            && lhs.leader?.to == rhs.leader?.to
    }

    /// Hashes the index, text and box.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(markerIndex)
        hasher.combine(text)
        hasher.combine(x)
        hasher.combine(y)
    }
}
