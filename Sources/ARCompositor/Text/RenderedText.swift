/// A line of text rendered to coverage masks: the glyphs, and a halo around them so the text
/// reads on any background (drawn first, in a contrasting colour).
public struct RenderedText: Sendable {
    /// The glyphs.
    public var mask: CoverageMask
    /// The glyphs grown by the halo radius, same size and origin as ``mask``.
    public var halo: CoverageMask
    /// Rows from the masks' top to the baseline.
    public var baseline: Int
    /// Characters no font could draw (shown as the font's missing-glyph box).
    public var missingGlyphs: Int
}
