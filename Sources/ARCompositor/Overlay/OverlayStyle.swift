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
