import ArcaptureCore
import Foundation

/// Draws a ``MarkerLayout`` onto a YCbCr frame: markers, labels with plates, halos and leader
/// lines, and edge arrows.
///
/// A label (plate, halo, text), a marker (fill, ring) and the navigation panel are composed once
/// into a sprite for the frame's chroma layout and kept (they repeat frame after frame), so a
/// steady stream of frames draws each of them in one pass per plane. Sprites sit on whole chroma
/// cells: a label or marker moves by at most one pixel to get there. Not thread-safe: one
/// compositor per drawing thread.
public final class Compositor {
    /// The style.
    public let style: OverlayStyle
    /// The sample range of the frames drawn on.
    public let sampleRange: SampleRange
    let painter = Painter()

    /// Called before a drawing reads and changes a region of a frame (``Painter/willChange``): a
    /// spliced JPEG frame decodes its MCUs then.
    public var willChange: ((_ rows: Range<Int>, _ columns: Range<Int>, inout YCbCrImage) -> Void)? {
        get { painter.willChange }
        set { painter.willChange = newValue }
    }
    private var renderers: [Int: TextRenderer] = [:]
    private var dots: [Int: (fill: CoverageMask, ring: CoverageMask)] = [:]
    private var plates: [SIMD2<Int32>: CoverageMask] = [:]
    let sprites: SpriteCache
    let groundScratch = GroundScratch()

    /// Creates a compositor; the font is opened now, so a missing one is reported before drawing.
    ///
    /// - Parameters:
    ///   - style: colours, sizes, layers and the font.
    ///   - sampleRange: the range of the frames it will draw on (full for JPEG).
    ///   - sprites: where composed labels, markers and panels are kept; compositors with the same
    ///     style and range on several threads may share one.
    /// - Throws: ``FontError``.
    public init(
        style: OverlayStyle = OverlayStyle(), sampleRange: SampleRange = .full, sprites: SpriteCache = SpriteCache()
    ) throws(FontError) {
        self.style = style
        self.sprites = sprites
        self.sampleRange = sampleRange
        painter.sampleRange = sampleRange
        let renderer = try TextRenderer(font: style.font, pixelSize: 20)
        fontNote = renderer.substitute.map {
            "font '\(style.font)': fontconfig has no such font; using \($0) (\(renderer.fontFile)) instead"
        }
    }

    /// Said when the style's font is not the one drawn with: fontconfig knew no font by that name
    /// and chose another (its family and file named), or nil.
    public let fontNote: String?

    /// The scripts of `labels` that no installed font draws (see ``TextRenderer/uncoveredScripts(in:)``):
    /// for a warning before the first frame.
    public func uncoveredScripts(in labels: [String]) -> [UncoveredScript] {
        textRenderer(pixelSize: 20)?.uncoveredScripts(in: labels) ?? []
    }

    /// The pixel size of text on a frame `height` rows tall.
    public func textSize(frameHeight height: Int) -> Int { max(10, Int((Double(height) * style.textScale).rounded())) }

    /// The text renderer for frames `height` rows tall.
    public func textRenderer(frameHeight height: Int) -> TextRenderer? {
        textRenderer(pixelSize: textSize(frameHeight: height))
    }

    /// The text renderer for `size`-pixel text (kept: its caches are what makes text cheap).
    func textRenderer(pixelSize size: Int) -> TextRenderer? {
        if let renderer = renderers[size] { return renderer }
        let renderer = try? TextRenderer(font: style.font, pixelSize: size)
        renderers[size] = renderer
        return renderer
    }

    /// A label's size for ``MarkerLayout`` (text plus the plate's padding), on frames `height` tall.
    public func labelSize(_ text: String, frameHeight height: Int) -> (width: Int, height: Int) {
        textRenderer(frameHeight: height)?.size(of: text) ?? (text.count * 10, 24)
    }

    /// Draws `layout` on `image`: markers, labels and edge arrows, as the style's layers allow,
    /// at `opacity` (below 1 under an uncertain heading: see ``HeadingAccuracyPolicy``; 0 draws
    /// nothing).
    public func draw(_ layout: MarkerLayout, on image: inout YCbCrImage, opacity: Double = 1) {
        guard opacity > 0 else { return }
        let renderer = textRenderer(frameHeight: image.height)
        if style.layers.contains(.markers) {
            for marker in layout.markers { drawMarker(marker, on: &image, opacity: opacity) }
        }
        if style.layers.contains(.labels) { drawLabels(layout, renderer: renderer, on: &image, opacity: opacity) }
        if style.layers.contains(.edgeArrows) {
            for indicator in layout.edgeIndicators {
                drawEdge(indicator, renderer: renderer, on: &image, opacity: opacity)
            }
        }
    }

    private func drawLabels(
        _ layout: MarkerLayout, renderer: TextRenderer?, on image: inout YCbCrImage, opacity: Double
    ) {
        for label in layout.labels {
            if let leader = label.leader {
                painter.fillLine(
                    from: leader.from, to: leader.to, width: 1.5 * MarkerLayoutOptions.frameScale(height: image.height),
                    color: style.accentColor.withOpacity(opacity), on: &image)
            }
            let (h, v) = Self.factors(image)
            let (width, height) = (Int(label.width), Int(label.height))
            let key = SpriteCache.Key(
                kind: 1, text: label.text, numbers: SIMD4(Int64(width), Int64(height), Int64(h), Int64(v)))
            let sprite = sprites.sprite(key) {
                var layers = [
                    Sprite.Layer(mask: plateMask(width: width, height: height), x: 0, y: 0, color: style.plateColor)
                ]
                if let text = renderer?.render(label.text) {
                    layers.append(Sprite.Layer(mask: text.halo, x: 0, y: 0, color: style.haloColor))
                    layers.append(Sprite.Layer(mask: text.mask, x: 0, y: 0, color: style.textColor))
                    if let color = text.color {
                        layers.append(Sprite.Layer(mask: text.mask, x: 0, y: 0, color: style.textColor, image: color))
                    }
                }
                return Sprite(width: width, height: height, h: h, v: v, layers: layers, range: sampleRange)
            }
            painter.draw(
                sprite, x: Self.floor(Int(label.x), to: h), y: Self.floor(Int(label.y), to: v), on: &image,
                opacity: opacity)
        }
    }

    /// The chroma factors sprites are built for on `image` (1×1 for grey).
    static func factors(_ image: YCbCrImage) -> (h: Int, v: Int) {
        image.planes.count == 3
            ? (image.subsampling.horizontalFactor, image.subsampling.verticalFactor) : (1, 1)
    }

    /// `value` rounded down to a multiple of `step` (negative values too).
    static func floor(_ value: Int, to step: Int) -> Int {
        value >= 0 ? value / step * step : -((-value + step - 1) / step * step)
    }

    private func drawMarker(_ marker: PlacedMarker, on image: inout YCbCrImage, opacity: Double) {
        // Radii in half pixels share sprites; the centre is placed to the nearest chroma cell.
        let key = Int((marker.radius * 2).rounded())
        let color = style.color(for: marker.pointOfInterest, selected: marker.isSelected)
        let outline = marker.isSelected ? RGBAColor.white : style.markerOutline
        let (h, v) = Self.factors(image)
        let spriteKey = SpriteCache.Key(
            kind: 2, numbers: SIMD4(Int64(key), Int64(color.packed), Int64(outline.packed), Int64(h * 16 + v)))
        let sprite = sprites.sprite(spriteKey) {
            let masks = dotMasks(halfPixels: key)
            return Sprite(
                width: masks.fill.width, height: masks.fill.height, h: h, v: v,
                layers: [
                    Sprite.Layer(mask: masks.fill, x: 0, y: 0, color: color),
                    Sprite.Layer(mask: masks.ring, x: 0, y: 0, color: outline),
                ], range: sampleRange)
        }
        let size = dotMasks(halfPixels: key).fill.width
        let x = Self.floor(Int(marker.center.x.rounded()) - size / 2, to: h)
        let y = Self.floor(Int(marker.center.y.rounded()) - size / 2, to: v)
        painter.draw(sprite, x: x, y: y, on: &image, opacity: opacity)
    }

    private func dotMasks(halfPixels key: Int) -> (fill: CoverageMask, ring: CoverageMask) {
        if let cached = dots[key] { return cached }
        let radius = Double(key) / 2
        let size = Int((radius + 2).rounded(.up)) * 2 + 1
        let centre = SIMD2(Double(size) / 2, Double(size) / 2)
        let width = max(1.5, radius / 5)
        let masks = (
            fill: painter.mask(of: .circle(center: centre, radius: radius), width: size, height: size),
            ring: painter.mask(of: .ring(center: centre, radius: radius, width: width), width: size, height: size)
        )
        dots[key] = masks
        return masks
    }

    private func plateMask(width: Int, height: Int) -> CoverageMask {
        let key = SIMD2(Int32(width), Int32(height))
        if let cached = plates[key] { return cached }
        if plates.count >= 512 { plates.removeAll(keepingCapacity: true) }  // bounded over long footage
        let mask = painter.mask(
            of: .roundedRectangle(x: 0, y: 0, width: Double(width), height: Double(height), radius: Double(height) / 4),
            width: width, height: height)
        plates[key] = mask
        return mask
    }

    private func drawEdge(
        _ indicator: EdgeIndicator, renderer: TextRenderer?, on image: inout YCbCrImage, opacity: Double
    ) {
        let size = Double(textSize(frameHeight: image.height))
        let tip = indicator.position
        let direction = SIMD2(cos(indicator.angle), sin(indicator.angle))
        let normal = SIMD2(-direction.y, direction.x)
        let base = tip - direction * size
        let arrow = Shape.polygon([tip, base + normal * size * 0.6, base - normal * size * 0.6])
        painter.fill(arrow, color: style.haloColor.withOpacity(opacity), on: &image)
        painter.fill(
            Shape.polygon([tip - direction * 2, base + normal * size * 0.45, base - normal * size * 0.45]),
            color: style.accentColor.withOpacity(opacity), on: &image)
        guard let text = renderer?.render(indicator.text) else { return }
        // The name and distance sit just inside the arrow (as far in as the text reaches that way:
        // half its width beside a side arrow, half its height below a top one), kept in the frame.
        let reach = MarkerLayout.textReach(
            width: Double(text.mask.width), height: Double(text.mask.height), along: direction)
        let centre = base - direction * (reach + 2)
        let x = min(max(0, Int(centre.x) - text.mask.width / 2), image.width - text.mask.width)
        let y = min(max(0, Int(centre.y) - text.mask.height / 2), image.height - text.mask.height)
        painter.stamp(text.halo, x: x, y: y, color: style.haloColor.withOpacity(opacity), on: &image)
        painter.stamp(text.mask, x: x, y: y, color: style.textColor.withOpacity(opacity), on: &image)
    }
}
