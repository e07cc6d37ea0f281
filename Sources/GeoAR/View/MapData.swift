import ARCompositor

/// What an ``ARSession`` loads once and shares: the points of interest, the route, the style and
/// the banner.
public struct MapData: Sendable {
    /// The points of interest.
    public var pointsOfInterest: [PointOfInterest]
    /// The route to follow, if any.
    public var route: NavigationRoute?
    /// Colours, sizes, layers, the font and the layout's limits.
    public var style: OverlayStyleFile
    /// The banner along the bottom (the style's when none is given).
    public var banner: BannerTemplate?
    /// What loading left out, one sentence each naming the file (features of the POI file that
    /// are not points of interest): for the user to see, since nothing is drawn for them.
    public var notes: [String] = []

    /// Creates map data from values.
    public init(
        pointsOfInterest: [PointOfInterest] = [], route: NavigationRoute? = nil,
        style: OverlayStyleFile = OverlayStyleFile(), banner: BannerTemplate? = nil
    ) {
        self.pointsOfInterest = pointsOfInterest
        self.route = route
        self.style = style
        self.banner = banner ?? style.banner
    }
}
