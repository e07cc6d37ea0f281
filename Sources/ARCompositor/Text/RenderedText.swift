/// A line of text rendered to coverage masks: the glyphs, and a halo around them so the text
/// reads on any background (drawn first, in a contrasting colour).
public struct RenderedText: Sendable {
    /// The glyphs (colour glyphs too, as their alpha: drawn in the text's colour where colour is
    /// not drawn).
    public var mask: CoverageMask
    /// The glyphs grown by the halo radius, same size and origin as ``mask``.
    public var halo: CoverageMask
    /// Rows from the masks' top to the baseline.
    public var baseline: Int
    /// Characters no font could draw (shown as the font's missing-glyph box).
    public var missingGlyphs: Int
    /// The colour glyphs (emoji), same size and origin as ``mask``, drawn over it; nil when the
    /// line has none.
    public var color: ColorBitmap? = nil
}
