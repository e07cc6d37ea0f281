/// What was drawn on one frame: for summaries, sidecars and tests.
public struct FrameAnnotation: Sendable {
    /// The markers, labels and edge arrows.
    public var layout: MarkerLayout
    /// The navigation state, or nil without a route or after arrival.
    public var navigation: NavigationInfo?
    /// The banner's text, when there is a banner.
    public var banner: String?
    /// The opacity markers, labels and edge arrows were drawn at (below 1 under an uncertain
    /// heading; 0: laid out but not drawn).
    public var markerOpacity: Double

    /// Creates a record.
    public init(layout: MarkerLayout, navigation: NavigationInfo?, banner: String?, markerOpacity: Double = 1) {
        self.layout = layout
        self.navigation = navigation
        self.banner = banner
        self.markerOpacity = markerOpacity
    }
}
