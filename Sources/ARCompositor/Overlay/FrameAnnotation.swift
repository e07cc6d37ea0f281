/// What was drawn on one frame: for summaries, sidecars and tests.
public struct FrameAnnotation: Sendable {
    /// The markers, labels and edge arrows.
    public var layout: MarkerLayout
    /// The navigation state, or nil without a route or after arrival.
    public var navigation: NavigationInfo?
    /// The banner's text, when there is a banner.
    public var banner: String?

    /// Creates a record.
    public init(layout: MarkerLayout, navigation: NavigationInfo?, banner: String?) {
        self.layout = layout
        self.navigation = navigation
        self.banner = banner
    }
}
