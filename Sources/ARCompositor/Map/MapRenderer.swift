import ArcaptureCore
import Foundation

/// Draws a plan view of the session's world into a rectangle of a frame, with the same painter and
/// fonts the AR overlay uses: the route, the recent track, the points of interest (the nearest
/// labelled, the selected highlighted), and the user's position with an arrow for the heading.
///
/// The map is centred on the user, `metresAcross` across its shorter side, north-up or heading-up; positions go
/// through the same East-North-Up frame as projection (no flat-earth shortcut beyond the tangent
/// plane at the user, which is exact to millimetres over a few kilometres).
///
/// - Important: Not thread-safe; one renderer per drawing thread.
public final class MapRenderer {
    /// How the map is drawn.
    public struct Options: Sendable, Hashable {
        /// Which way is up.
        public var orientation: MapOrientation
        /// Metres across the map's shorter side; nil to choose from the points of
        /// interest: the first of 200 m, 500 m, 1, 2, 5, 10 and 20 km that shows the five nearest.
        public var metresAcross: Double?
        /// How many of the nearest points of interest are labelled (the selected always are).
        public var maximumLabels: Int
        /// How many of the nearest points of interest are drawn at most (the selected always are).
        public var maximumPoints: Int

        /// Creates options.
        public init(
            orientation: MapOrientation = .headingUp, metresAcross: Double? = nil, maximumLabels: Int = 5,
            maximumPoints: Int = 30
        ) {
            self.orientation = orientation
            self.metresAcross = metresAcross
            self.maximumLabels = maximumLabels
            self.maximumPoints = maximumPoints
        }
    }

    /// What one map drew.
    public struct Drawn: Sendable, Equatable {
        /// The points of interest drawn, by id, with their pixel.
        public var points: [String: SIMD2<Double>]
        /// The ids of those labelled.
        public var labelled: Set<String>
        /// Where the user's arrow is.
        public var user: SIMD2<Double>
    }

    /// The options.
    public let options: Options
    private let style: OverlayStyle
    private let painter = Painter()

    /// Called before a drawing reads and changes a region of a frame (``Painter/willChange``): a
    /// spliced JPEG frame decodes its MCUs then.
    public var willChange: ((_ rows: Range<Int>, _ columns: Range<Int>, inout YCbCrImage) -> Void)? {
        get { painter.willChange }
        set { painter.willChange = newValue }
    }
    private var text: TextRenderer?
    private var textHeight = 0

    /// Creates a renderer.
    public init(style: OverlayStyle = OverlayStyle(), options: Options = Options()) {
        self.style = style
        self.options = options
    }

    /// Draws the map into `rect` of `image`.
    ///
    /// - Parameters:
    ///   - image: the frame, drawn on in place.
    ///   - rect: where the map goes (clipped to the frame).
    ///   - latitude: the user's latitude, the map's centre.
    ///   - longitude: the user's longitude.
    ///   - heading: the heading in degrees clockwise from north, if known.
    ///   - pointsOfInterest: the POIs.
    ///   - selected: the ids of the selected POIs.
    ///   - route: the route, if any.
    ///   - track: recent positions (latitude, longitude), oldest first.
    /// - Returns: what was drawn where.
    @discardableResult
    public func draw(
        into image: inout YCbCrImage, rect: MapRect, latitude: Double, longitude: Double, heading: Double?,
        pointsOfInterest: [PointOfInterest], selected: Set<String>, route: NavigationRoute?,
        track: [SIMD2<Double>]
    ) -> Drawn {
        painter.sampleRange = .full
        let plate = Shape.roundedRectangle(
            x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height),
            radius: Double(min(rect.width, rect.height)) / 16)
        painter.fill(plate, color: style.panelColor, on: &image)
        let frame = LocalFrame(latitude: latitude, longitude: longitude, altitude: 0)
        let across = options.metresAcross ?? Self.span(showing: pointsOfInterest, around: frame)
        let scale = Double(min(rect.width, rect.height)) / across
        let turn = options.orientation == .headingUp ? (heading ?? 0) * .pi / 180 : 0
        let (sine, cosine) = (sin(turn), cos(turn))
        let center = rect.center
        func pixel(_ pointLatitude: Double, _ pointLongitude: Double) -> SIMD2<Double> {
            let enu = frame.enu(latitude: pointLatitude, longitude: pointLongitude, altitude: 0)
            // Turn the world by −heading so the heading points up, then down the screen is south.
            let x = enu.east * cosine - enu.north * sine
            let y = enu.east * sine + enu.north * cosine
            return center + SIMD2(x * scale, -y * scale)
        }
        func line(_ a: SIMD2<Double>, _ b: SIMD2<Double>, width: Double, color: RGBAColor) {
            guard let (from, to) = Self.clip(a, b, to: rect) else { return }
            painter.fillLine(from: from, to: to, width: width, color: color, on: &image)
        }
        let lineWidth = max(2, Double(rect.width) / 90)
        if let route {
            let vertices = route.route.vertices.map { pixel($0.latitude, $0.longitude) }
            for (a, b) in zip(vertices, vertices.dropFirst()) {
                line(a, b, width: lineWidth * 1.5, color: style.routeColor.withOpacity(1))
            }
        }
        let trail = track.map { pixel($0.x, $0.y) }
        for (a, b) in zip(trail, trail.dropFirst()) {
            line(a, b, width: lineWidth * 0.6, color: style.accentColor.withOpacity(0.6))
        }
        // POIs far to near, so the nearest is on top; labels for the nearest and the selected.
        var placed: [(point: PointOfInterest, pixel: SIMD2<Double>, distance: Double)] = []
        for point in pointsOfInterest {
            let at = pixel(point.latitude, point.longitude)
            guard rect.contains(at, margin: lineWidth * 2) else { continue }
            let offset = at - center
            placed.append((point, at, (offset * offset).sum().squareRoot()))
        }
        placed.sort { $0.distance > $1.distance }
        if placed.count > options.maximumPoints {
            let cut = placed.count - options.maximumPoints
            placed = placed.enumerated().filter { $0.offset >= cut || selected.contains($0.element.point.id) }.map(
                \.element)
        }
        let radius = max(3, Double(rect.width) / 70)
        for entry in placed {
            let isSelected = selected.contains(entry.point.id)
            let color = isSelected ? style.selectedColor : markerColor(entry.point)
            let size = isSelected ? radius * 1.6 : radius
            painter.fill(
                .circle(center: entry.pixel, radius: size + max(0.8, size * 0.3)), color: style.markerOutline,
                on: &image)
            painter.fill(.circle(center: entry.pixel, radius: size), color: color, on: &image)
        }
        let nearest = placed.suffix(options.maximumLabels).map(\.point.id)
        var labelled: Set<String> = []
        var taken: [MapRect] = []
        if let renderer = textRenderer(height: rect.height) {
            for entry in placed.reversed()
            where nearest.contains(entry.point.id) || selected.contains(entry.point.id) {
                let rendered = renderer.render(entry.point.name)
                let x = Int(entry.pixel.x + radius * 2)
                let y = Int(entry.pixel.y) - rendered.mask.height / 2
                // Only labels that fit inside the map.
                let box = MapRect(x: x, y: y, width: rendered.mask.width, height: rendered.mask.height)
                guard x + box.width < rect.x + rect.width, y >= rect.y, y + box.height < rect.y + rect.height,
                    !taken.contains(where: { $0.intersects(box) })
                else { continue }
                taken.append(box)
                let color = selected.contains(entry.point.id) ? style.selectedColor : style.textColor
                painter.stamp(
                    rendered.halo, x: x - renderer.haloRadius, y: y - renderer.haloRadius, color: style.haloColor,
                    on: &image)
                painter.stamp(rendered.mask, x: x, y: y, color: color, on: &image)
                labelled.insert(entry.point.id)
            }
        }
        // The user: an arrow along the heading (up when heading-up), or a dot without one.
        let arrow = Double(rect.width) / 22
        if let heading {
            let angle = options.orientation == .headingUp ? 0 : heading * .pi / 180
            func turned(_ x: Double, _ y: Double) -> SIMD2<Double> {
                center + SIMD2(x * cos(angle) - y * sin(angle), x * sin(angle) + y * cos(angle))
            }
            let tip = turned(0, -arrow)
            let left = turned(-arrow * 0.6, arrow * 0.7)
            let notch = turned(0, arrow * 0.35)
            let right = turned(arrow * 0.6, arrow * 0.7)
            painter.fill(.polygon([tip, right, notch, left]), color: style.accentColor, on: &image)
        } else {
            painter.fill(.circle(center: center, radius: arrow * 0.5), color: style.accentColor, on: &image)
        }
        // North, when it is not up.
        if options.orientation == .headingUp, let renderer = textRenderer(height: rect.height) {
            let north = SIMD2(-sine, -cosine)
            let at = center + north * (Double(min(rect.width, rect.height)) / 2 - Double(renderer.pixelSize))
            let rendered = renderer.render("N")
            let x = Int(at.x) - rendered.mask.width / 2
            let y = Int(at.y) - rendered.mask.height / 2
            painter.stamp(
                rendered.halo, x: x - renderer.haloRadius, y: y - renderer.haloRadius, color: style.haloColor,
                on: &image)
            painter.stamp(rendered.mask, x: x, y: y, color: style.textColor, on: &image)
        }
        return Drawn(
            points: Dictionary(placed.map { ($0.point.id, $0.pixel) }, uniquingKeysWith: { a, _ in a }),
            labelled: labelled, user: center)
    }

    /// The width that shows the five points of interest nearest the centre, in steps (so the scale
    /// does not change from frame to frame as the user moves).
    static func span(showing points: [PointOfInterest], around frame: LocalFrame) -> Double {
        let steps: [Double] = [200, 500, 1000, 2000, 5000, 10_000, 20_000]
        var distances = points.map { point in
            frame.enu(latitude: point.latitude, longitude: point.longitude, altitude: 0).horizontalDistance
        }
        distances.sort()
        guard !distances.isEmpty else { return steps[2] }
        let needed = distances[min(4, distances.count - 1)] * 2.4  // the fifth nearest inside, with a margin
        return steps.first { $0 >= needed } ?? steps[steps.count - 1]
    }

    private func markerColor(_ point: PointOfInterest) -> RGBAColor {
        if let hex = point.color, let color = RGBAColor(hex: hex) { return color }
        if let category = point.category, let color = style.categoryColors[category] { return color }
        return style.markerColor
    }

    /// The map's text renderer, made again when the map's height changes.
    private func textRenderer(height: Int) -> TextRenderer? {
        let size = max(9, height / 18)
        if let text, textHeight == size { return text }
        text = try? TextRenderer(font: style.font, pixelSize: size)
        textHeight = size
        return text
    }

    /// The part of the segment from `a` to `b` inside `rect` (Liang–Barsky), or nil.
    static func clip(_ a: SIMD2<Double>, _ b: SIMD2<Double>, to rect: MapRect) -> (SIMD2<Double>, SIMD2<Double>)? {
        let delta = b - a
        var low = 0.0
        var high = 1.0
        let edges: [(Double, Double)] = [
            (-delta.x, a.x - Double(rect.x)), (delta.x, Double(rect.x + rect.width) - a.x),
            (-delta.y, a.y - Double(rect.y)), (delta.y, Double(rect.y + rect.height) - a.y),
        ]
        for (p, q) in edges {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let t = q / p
            if p < 0 { low = max(low, t) } else { high = min(high, t) }
            if low > high { return nil }
        }
        return (a + delta * low, a + delta * high)
    }
}
