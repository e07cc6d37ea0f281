/// How overlays look: colours, sizes, font. The defaults read on bright sky and dark streets alike
/// (white text with a dark halo on a translucent plate).
public struct OverlayStyle: Hashable, Sendable {
    /// The marker colour for POIs without their own `color` or a category colour.
    public var markerColor = RGBAColor(red: 0xE6, green: 0x39, blue: 0x46)
    /// Colours by category (`amenity=cafe` → a colour), used before ``markerColor``.
    public var categoryColors: [String: RGBAColor] = [:]
    /// The marker's outline.
    public var markerOutline = RGBAColor.white
    /// Selected POIs' markers and outlines.
    public var selectedColor = RGBAColor(red: 0xFF, green: 0xB7, blue: 0x03)
    /// Label text.
    public var textColor = RGBAColor.white
    /// The halo around label text.
    public var haloColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 190)
    /// The plate behind a label.
    public var plateColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 120)
    /// Leader lines and edge arrows.
    public var accentColor = RGBAColor.white
    /// The route's ribbon on the ground.
    public var routeColor = RGBAColor(red: 0x1E, green: 0x88, blue: 0xE5, alpha: 150)
    /// The ribbon's width in metres.
    public var routeWidth = 3.0
    /// How far ahead (metres) the ribbon and the ground arrow are drawn.
    public var routeDistance = 1000.0
    /// The arrow painted on the ground at the next manoeuvre.
    public var manoeuvreColor = RGBAColor(red: 0xFF, green: 0xFF, blue: 0xFF, alpha: 220)
    /// The navigation panel's and the banner's background.
    public var panelColor = RGBAColor(red: 0x10, green: 0x18, blue: 0x20, alpha: 180)
    /// The panel's icon and headline when off the route.
    public var warningColor = RGBAColor(red: 0xFF, green: 0x8C, blue: 0x1A)
    /// Which layers are drawn.
    public var layers: Set<OverlayLayer> = Set(OverlayLayer.allCases)
    /// A fontconfig name or a font file.
    public var font = "DejaVu Sans"
    /// Text size as a fraction of the frame height (1/36: 20 px at 720p, 30 px at 1080p).
    public var textScale = 1.0 / 36

    /// Creates the defaults.
    public init() {}

    /// The marker colour for `point`: selected, its own `color`, its category's, or the default.
    public func color(for point: PointOfInterest, selected: Bool) -> RGBAColor {
        if selected { return selectedColor }
        if let text = point.color, let color = RGBAColor(hex: text) { return color }
        if let category = point.category, let color = categoryColors[category] { return color }
        return markerColor
    }
}
