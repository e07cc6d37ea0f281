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

    /// How much a frame `height` rows tall scales the pixel sizes above (radii, gap, edge margin)
    /// and the leader lines: 1 up to 720 rows, for which they are given, then in proportion, as
    /// text grows with the frame (at 4K, 5-pixel dots beside 60-pixel text were specks).
    public static func frameScale(height: Int) -> Double { max(1, Double(height) / 720) }

    /// These options with their pixel sizes scaled for frames `height` rows tall
    /// (``frameScale(height:)``).
    public func scaled(forFrameHeight height: Int) -> MarkerLayoutOptions {
        let scale = Self.frameScale(height: height)
        guard scale != 1 else { return self }
        var scaled = self
        scaled.maximumRadius *= scale
        scaled.minimumRadius *= scale
        scaled.gap *= scale
        scaled.edgeMargin *= scale
        return scaled
    }
}
