import ArcaptureCore
import Foundation

extension Compositor {
    /// Draws the rest of the route as a ribbon on the ground, from the traveller's snapped position
    /// on, and an arrow on the ground at the next manoeuvre when it is near (150 m) and in front.
    ///
    /// - Parameters:
    ///   - route: the route.
    ///   - info: where the traveller is on it (from ``RouteNavigator``); nil draws the whole route.
    ///   - projector: the pose and camera of this frame; its ground altitude is the ribbon's.
    ///   - image: the frame.
    public func drawRoute(
        _ route: NavigationRoute, info: NavigationInfo?, projector: Projector, on image: inout YCbCrImage
    ) {
        let ground = GroundGeometry(projector: projector)
        let scratch = groundScratch
        if style.layers.contains(.route) {
            route.remainingVertices(from: info?.snap, into: &scratch.vertices)
            ground.ribbon(
                scratch.vertices, width: style.routeWidth, maximumDistance: style.routeDistance, scratch: scratch)
            painter.fill(scratch.shape, color: style.routeColor, on: &image)
        }
        guard style.layers.contains(.manoeuvreArrow), let info, !info.isOffRoute,
            info.nextManoeuvre.kind != .arrive, info.distanceToManoeuvre <= 150
        else { return }
        // After the turn, pointing the way out of it.
        let along = info.nextManoeuvre.distanceAlongRoute
        let bearing = route.bearing(at: along, ahead: 10)
        let centre = route.point(at: along + 5).geodetic
        ground.arrow(
            latitude: centre.latitude, longitude: centre.longitude, bearing: bearing, length: style.routeWidth * 2.5,
            scratch: scratch)
        painter.fill(scratch.shape, color: style.manoeuvreColor, on: &image)
    }

    /// Draws the navigation panel at the top left: the manoeuvre's pictogram, the instruction
    /// ("Turn left in 120 m") and the remaining distance and time; when off the route, a warning.
    ///
    /// The panel is composed once per text into a sprite (its text changes every few seconds, not
    /// every frame).
    public func drawPanel(_ info: NavigationInfo, units: DistanceUnits, on image: inout YCbCrImage) {
        guard let (sprite, x, y) = panelPlacement(info, units: units, on: image) else { return }
        painter.draw(sprite, x: x, y: y, on: &image)
    }

    /// Where ``drawPanel(_:units:on:)`` puts the panel on `image` (x, y, width, height), or nil
    /// when it draws none: the layout keeps edge arrows and labels off it.
    public func panelArea(_ info: NavigationInfo, units: DistanceUnits, on image: YCbCrImage) -> SIMD4<Double>? {
        panelPlacement(info, units: units, on: image).map {
            SIMD4(Double($0.x), Double($0.y), Double($0.sprite.width), Double($0.sprite.height))
        }
    }

    /// The panel's sprite (composed once per text) and its top-left corner.
    private func panelPlacement(_ info: NavigationInfo, units: DistanceUnits, on image: YCbCrImage)
        -> (sprite: Sprite, x: Int, y: Int)?
    {
        guard style.layers.contains(.panel) else { return nil }
        let size = textSize(frameHeight: image.height)
        let (h, v) = Self.factors(image)
        // The key is what the panel shows, from short texts and numbers (no string is built for a
        // panel already composed): the distance as displayed, whether it reads "now", the
        // manoeuvre and its turn, the remaining distance and whole minutes.
        let shown = units.format(info.isOffRoute ? info.snap.distanceFromRoute : info.distanceToManoeuvre)
        let manoeuvre =
            info.isOffRoute
            ? -1
            : Int64(ManoeuvreKind.allCases.firstIndex(of: info.nextManoeuvre.kind) ?? 0) * 1000
                + Int64(info.nextManoeuvre.turn.rounded()) + 500
        let minutes = info.remainingTime.map { Int64(($0 / 60).rounded()) } ?? -1
        let key = SpriteCache.Key(
            kind: info.distanceToManoeuvre < 10 && !info.isOffRoute ? 4 : 3, text: shown,
            detail: units.format(info.remainingDistance),
            numbers: SIMD4(manoeuvre, minutes, Int64(size), Int64(h * 16 + v)))
        guard let sprite = panelSprite(key: key, info: info, units: units, size: size, h: h, v: v) else { return nil }
        let margin = Self.floor(size / 2, to: max(h, v))
        return (sprite, Self.floor(margin, to: h), Self.floor(margin, to: v))
    }

    private func panelSprite(
        key: SpriteCache.Key, info: NavigationInfo, units: DistanceUnits, size: Int, h: Int, v: Int
    ) -> Sprite? {
        guard let headline = textRenderer(pixelSize: size * 13 / 10), let body = textRenderer(pixelSize: size) else {
            return nil
        }
        return sprites.sprite(key) {
            let first = headline.render(info.instruction(units: units))
            let second = body.render(info.summary(units: units))
            let pad = Double(size) / 2
            let icon = Double(first.mask.height + second.mask.height) * 0.9
            let textWidth = Double(max(first.mask.width, second.mask.width))
            let width = Int((pad + icon + pad + textWidth + pad).rounded(.up))
            let height = Int((pad + max(icon, Double(first.mask.height + second.mask.height)) + pad).rounded(.up))
            var layers = [
                Sprite.Layer(
                    mask: painter.mask(
                        of: .roundedRectangle(
                            x: 0, y: 0, width: Double(width), height: Double(height), radius: pad),
                        width: width, height: height), x: 0, y: 0, color: style.panelColor)
            ]
            let accent = info.isOffRoute ? style.warningColor : style.accentColor
            let shapes =
                info.isOffRoute
                ? Self.warningIcon(x: pad, y: pad, size: icon)
                : ManoeuvreIcon.shapes(
                    for: info.nextManoeuvre.kind, turn: info.nextManoeuvre.turn, x: pad, y: pad, size: icon)
            for shape in shapes {
                layers.append(
                    Sprite.Layer(mask: painter.mask(of: shape, width: width, height: height), x: 0, y: 0, color: accent)
                )
            }
            let textX = Int(pad + icon + pad)
            let textY = Int(pad)
            layers.append(
                Sprite.Layer(
                    mask: first.mask, x: textX, y: textY,
                    color: info.isOffRoute ? style.warningColor : style.textColor))
            layers.append(
                Sprite.Layer(mask: second.mask, x: textX, y: textY + first.mask.height, color: style.textColor))
            return Sprite(width: width, height: height, h: h, v: v, layers: layers, range: sampleRange)
        }
    }

    /// Where ``drawBanner(_:on:)`` puts the banner for `text` on a frame `width`×`height` (x, y,
    /// width, height: a strip across the bottom), or nil when it draws none.
    public func bannerArea(_ text: String, width: Int, height: Int) -> SIMD4<Double>? {
        guard style.layers.contains(.banner), !text.isEmpty, let renderer = textRenderer(frameHeight: height) else {
            return nil
        }
        let top = Self.bannerTop(renderer.render(text), height: height)
        return SIMD4(0, Double(top), Double(width), Double(height - top))
    }

    /// The banner strip's top row for `line` on a frame `height` rows tall.
    private static func bannerTop(_ line: RenderedText, height: Int) -> Int {
        height - line.mask.height - 2 * max(2, line.mask.height / 6)
    }

    /// Draws a line of text on a strip across the bottom of the frame (the banner).
    public func drawBanner(_ text: String, on image: inout YCbCrImage) {
        guard style.layers.contains(.banner), !text.isEmpty,
            let renderer = textRenderer(frameHeight: image.height)
        else { return }
        let line = renderer.render(text)
        let pad = max(2, line.mask.height / 6)
        let top = Self.bannerTop(line, height: image.height)
        painter.fill(
            .roundedRectangle(
                x: 0, y: Double(top), width: Double(image.width), height: Double(image.height - top), radius: 0),
            color: style.panelColor, on: &image)
        painter.stamp(line.halo, x: pad * 2, y: top + pad, color: style.haloColor, on: &image)
        painter.stamp(line.mask, x: pad * 2, y: top + pad, color: style.textColor, on: &image)
    }

    /// A ring with an exclamation mark: off the route.
    private static func warningIcon(x: Double, y: Double, size: Double) -> [Shape] {
        let centre = SIMD2(x + size / 2, y + size / 2)
        return [
            .ring(center: centre, radius: size * 0.42, width: size * 0.1),
            .line(from: centre - SIMD2(0, size * 0.2), to: centre + SIMD2(0, size * 0.05), width: size * 0.11),
            .circle(center: centre + SIMD2(0, size * 0.2), radius: size * 0.07),
        ]
    }
}
