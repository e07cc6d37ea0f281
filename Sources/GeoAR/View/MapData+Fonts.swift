import ARCompositor

extension MapData {
    /// Opens the style's font and says, before the first frame, what the text will not look like:
    /// a font fontconfig had no such name for (and the one drawn instead), and each script of the
    /// labels (the POIs' names, the banner) that no installed font draws, once, naming a label and
    /// the package that covers it. Every way of annotating (footage, photos, a camera) asks here.
    ///
    /// - Throws: ARCompositor's `FontError` when the font is missing or is no font.
    public func fontWarnings() throws(FontError) -> [String] {
        let compositor = try Compositor(style: style.style)
        var labels = pointsOfInterest.map(\.name)
        if let banner { labels.append(banner.source) }
        return [compositor.fontNote].compactMap { $0 } + compositor.uncoveredScripts(in: labels).map(\.warning)
    }
}
