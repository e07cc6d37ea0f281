/// Limits and sizes for laying out markers and labels.
public struct MarkerLayoutOptions: Hashable, Sendable {
    /// POIs further than this (metres) are left out. Default 5 km.
    public var maximumDistance: Double = 5000
    /// At most this many markers, the nearest (selected ones first). Default 30.
    public var maximumMarkers: Int = 30
    /// Marker radius at 100 m and nearer, in pixels; it shrinks as 100 m / distance down to
    /// ``minimumRadius``.
    public var maximumRadius: Double = 14
    /// The smallest marker radius.
    public var minimumRadius: Double = 5
    /// Gap between a marker and its label, and between stacked labels.
    public var gap: Double = 4
    /// How many label heights a label may be stacked above its marker before it is hidden.
    public var maximumStack: Int = 4
    /// Edge indicators for POIs out of view, the nearest first. Default 6; 0 turns them off.
    public var maximumEdgeIndicators: Int = 6
    /// Distance from the frame's border to an edge indicator's tip.
    public var edgeMargin: Double = 18
    /// Units for distances.
    public var units: DistanceUnits = .metric
    /// IDs of selected POIs: always labelled first, drawn highlighted.
    public var selected: Set<String> = []

    /// Creates the defaults.
    public init() {}
}
