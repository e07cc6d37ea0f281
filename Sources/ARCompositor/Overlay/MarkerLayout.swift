import Foundation

/// Where markers, labels and edge indicators go in one frame: computed from the projected POIs,
/// without drawing, so the rules can be tested on their own.
///
/// - Markers: POIs in view within ``MarkerLayoutOptions/maximumDistance``, at most
///   ``MarkerLayoutOptions/maximumMarkers`` (selected first, then nearest), listed far to near so
///   near ones are drawn on top. Nothing behind the camera gets a marker.
/// - Labels (`Name · 1.2 km`) are placed greedily by priority — selected, then nearest — at the
///   first free spot: right of the marker, left, above, below, then stacked upwards with a leader
///   line (above and stacked, hanging right of the marker's line first, so a cluster's labels
///   form a staircase whose lines pass beside the labels below them; a label does not sit just
///   over another marker of a cluster, which would close its way up). A label that finds no free spot inside the frame is hidden and counted (a selected one
///   is pushed inside the frame instead); labels never overlap.
/// - Edge indicators: POIs within range but out of view get an arrow at the border, pointing the
///   way (behind the camera: the nearer side), the nearest first, skipping ones that would crowd an
///   arrow already placed.
/// - Areas kept clear (the banner, the navigation panel) take no arrow and no label: a strip
///   across the frame moves the border arrows sit on, a box slides them along the border past it.
/// - Leader lines cross no other label and no other marker, and no label covers a marker, its own
///   included (a label slid along the border to stay inside the frame could).
public struct MarkerLayout: Sendable {
    /// Markers, far to near.
    public var markers: [PlacedMarker] = []
    /// Placed labels.
    public var labels: [PlacedLabel] = []
    /// Arrows at the border.
    public var edgeIndicators: [EdgeIndicator] = []
    /// Labels that found no room.
    public var hiddenLabels = 0
    /// POIs in view left out by the distance or count limits.
    public var omitted = 0
    /// Scratch kept for the next frame's ``update``: in-range POIs in view and out of view, and
    /// the labelling order.
    private var visible: [ProjectedPointOfInterest] = []
    private var outside: [ProjectedPointOfInterest] = []
    private var order: [Int] = []
    /// Where the edge arrows and their distances are drawn, and the areas kept clear (x, y,
    /// width, height): labels keep off.
    private var reserved: [SIMD4<Double>] = []
    /// The leader lines placed so far: later labels keep off them.
    private var leaders: [(from: SIMD2<Double>, to: SIMD2<Double>)] = []

    /// Lays out `points` (projected for one pose) on a `width`×`height` frame.
    ///
    /// - Parameters:
    ///   - points: the projected points of interest.
    ///   - width: the frame's width in pixels.
    ///   - height: the frame's height in pixels.
    ///   - heading: the camera's heading, to tell left from right for POIs behind it.
    ///   - options: limits, selection and units.
    ///   - labelSize: the pixel size of a label's text (from the text renderer; tests pass a rule).
    public init(
        points: [ProjectedPointOfInterest], width: Int, height: Int, heading: Double, options: MarkerLayoutOptions,
        labelSize: (String) -> (width: Int, height: Int)
    ) {
        self.init(
            points: points, width: width, height: height, heading: heading, options: options, texts: nil,
            labelSize: labelSize)
    }

    /// An empty layout, to be filled by ``update(points:width:height:heading:options:texts:labelSize:)``.
    init() {}

    /// As the public initialiser, with label texts kept between frames in `texts`.
    init(
        points: [ProjectedPointOfInterest], width: Int, height: Int, heading: Double, options: MarkerLayoutOptions,
        texts: LabelTextCache?, labelSize: (String) -> (width: Int, height: Int)
    ) {
        update(
            points: points, width: width, height: height, heading: heading, options: options, texts: texts,
            labelSize: labelSize)
    }

    /// Lays out a new frame, reusing this layout's arrays: once they have grown, a stream of
    /// frames lays out without allocating (sorting is in place; label texts come from `texts`).
    /// `keepClear` lists boxes (x, y, width, height) drawn over the frame later, such as the banner
    /// and the navigation panel, where no arrow or label may go.
    mutating func update(
        points: [ProjectedPointOfInterest], width: Int, height: Int, heading: Double, options: MarkerLayoutOptions,
        texts: LabelTextCache?, keepClear: [SIMD4<Double>] = [], labelSize: (String) -> (width: Int, height: Int)
    ) {
        markers.removeAll(keepingCapacity: true)
        labels.removeAll(keepingCapacity: true)
        edgeIndicators.removeAll(keepingCapacity: true)
        visible.removeAll(keepingCapacity: true)
        outside.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        reserved.removeAll(keepingCapacity: true)
        leaders.removeAll(keepingCapacity: true)
        hiddenLabels = 0
        omitted = 0
        for point in points {
            guard point.distance <= options.maximumDistance else {
                if point.inView { omitted += 1 }
                continue
            }
            if point.inView {
                if point.pixel != nil { visible.append(point) }
            } else {
                outside.append(point)
            }
        }
        // Selected first, then nearest; ties by identifier, so the order is total.
        InPlaceSort.sort(&visible) { Self.precedes($0, $1, options) }
        let keptCount = min(visible.count, options.maximumMarkers)
        omitted += visible.count - keptCount
        visible.removeLast(visible.count - keptCount)
        // Markers far to near (near ones drawn on top); labels in priority order.
        InPlaceSort.sort(&visible) {
            $0.distance != $1.distance
                ? $0.distance > $1.distance : $0.pointOfInterest.id > $1.pointOfInterest.id
        }
        for point in visible {
            markers.append(
                PlacedMarker(
                    pointOfInterest: point.pointOfInterest,
                    center: SIMD2(point.pixel?.u ?? 0, point.pixel?.v ?? 0),
                    radius: max(
                        options.minimumRadius, min(options.maximumRadius, options.maximumRadius * 100 / point.distance)
                    ),
                    distance: point.distance, isSelected: options.selected.contains(point.pointOfInterest.id)))
        }
        // Edge arrows first: they sit at the border whatever happens, and labels keep off them.
        InPlaceSort.sort(&outside) {
            $0.distance != $1.distance ? $0.distance < $1.distance : $0.pointOfInterest.id < $1.pointOfInterest.id
        }
        placeEdges(
            width: width, height: height, heading: heading, options: options, keepClear: keepClear,
            labelSize: labelSize)
        for indicator in edgeIndicators {
            reserved.append(Self.edgeBox(indicator.position, angle: indicator.angle, size: labelSize(indicator.text)))
        }
        reserved.append(contentsOf: keepClear)
        order.append(contentsOf: markers.indices)
        let placedMarkers = markers
        InPlaceSort.sort(&order) { a, b in
            let (first, second) = (placedMarkers[a], placedMarkers[b])
            if first.isSelected != second.isSelected { return first.isSelected }
            return first.distance != second.distance ? first.distance < second.distance : a < b
        }
        for index in order {
            let marker = markers[index]
            let distance = options.units.format(marker.distance)
            let text =
                texts?.text(for: marker.pointOfInterest, distance: distance)
                ?? LabelTextCache.compose(name: marker.pointOfInterest.name, distance: distance)
            let size = labelSize(text)
            if let label = place(
                text, size: size, marker: marker, index: index, width: width, height: height, options: options)
            {
                labels.append(label)
                if let leader = label.leader { leaders.append(leader) }
            } else {
                hiddenLabels += 1
            }
        }
    }

    /// Whether `a` is labelled and kept before `b`: selected first, then nearest, then by id.
    private static func precedes(
        _ a: ProjectedPointOfInterest, _ b: ProjectedPointOfInterest, _ options: MarkerLayoutOptions
    ) -> Bool {
        let (selectedA, selectedB) = (
            options.selected.contains(a.pointOfInterest.id), options.selected.contains(b.pointOfInterest.id)
        )
        if selectedA != selectedB { return selectedA }
        return a.distance != b.distance ? a.distance < b.distance : a.pointOfInterest.id < b.pointOfInterest.id
    }

    private func place(
        _ text: String, size: (width: Int, height: Int), marker: PlacedMarker, index: Int, width: Int, height: Int,
        options: MarkerLayoutOptions
    ) -> PlacedLabel? {
        let w = Double(size.width)
        let h = Double(size.height)
        let c = marker.center
        let r = marker.radius + options.gap
        // Beside (right, left), above, below, then stacked above with a leader line. Above and
        // stacked, a label first hangs right of its marker's line, then is centred on it, then
        // hangs left: in a cluster this builds a staircase, each line passing left of the labels
        // below it rather than through them. Computed one by one rather than listed, so placing
        // a label allocates nothing.
        for slot in 0..<(6 + 3 * max(1, options.maximumStack)) {
            let candidate: (x: Double, y: Double, leader: Bool)
            switch slot {
            case 0: candidate = (c.x + r, c.y - h / 2, false)
            case 1: candidate = (c.x - r - w, c.y - h / 2, false)
            case 5: candidate = (c.x - w / 2, c.y + r, false)
            default:
                // Above: level 0 (slots 2-4) just over the marker, then below (5), then higher
                // levels stacked with a leader line; each level hanging right of the marker's
                // line, centred on it, hanging left.
                let position = slot < 5 ? slot - 2 : slot - 3
                let level = position / 3
                let x =
                    switch position % 3 {
                    case 0: c.x - 4
                    case 1: c.x - w / 2
                    default: c.x - w + 4
                    }
                candidate = (x, c.y - r - h - Double(level) * (h + options.gap), level > 0)
            }

            // Kept inside the frame horizontally (a label may slide along), never above or below it.
            let x = min(max(0, candidate.x), Double(width) - w)
            guard x >= 0, candidate.y >= 0, candidate.y + h <= Double(height) else { continue }
            var label = PlacedLabel(markerIndex: index, text: text, x: x, y: candidate.y, width: w, height: h)
            let box = SIMD4(label.x, label.y, label.width, label.height)
            // No other label, no marker (its own included: a label slid inside the frame could
            // cover it), no arrow or kept-clear area, no leader line already drawn.
            guard !labels.contains(where: { $0.overlaps(label) }), !coversMarker(label, except: nil),
                !reserved.contains(where: { Self.intersects(box, $0) }),
                !leaders.contains(where: { Self.segment($0.from, $0.to, crosses: box) })
            else { continue }
            // Just over a cluster, a label would close the way up for the other markers' leader
            // lines: it goes higher, on a line of its own, instead.
            if (2...4).contains(slot), blocksWayUp(box, except: index, within: 2 * (h + options.gap)) { continue }
            if candidate.leader {
                let leader = (
                    from: SIMD2(c.x, c.y - marker.radius), to: SIMD2(min(max(c.x, x + 4), x + w - 4), candidate.y + h)
                )
                // The line itself crosses no other label and no other marker.
                guard !leaderCrosses(leader, except: index) else { continue }
                label.leader = leader
            }
            return label
        }
        // A selected POI is always labelled: beside its marker, pushed inside the frame, even over
        // other markers (labels of other selected POIs still never overlap it); off its own marker
        // when a place allows.
        guard marker.isSelected else { return nil }
        let x = max(0, min(max(0, c.x + r), Double(width) - w))
        for allowingOwnMarker in [false, true] {
            var y = min(max(0, c.y - h / 2), Double(height) - h)
            while y + h <= Double(height) {
                let label = PlacedLabel(markerIndex: index, text: text, x: x, y: y, width: w, height: h)
                if !labels.contains(where: { $0.overlaps(label) }),
                    allowingOwnMarker || !Self.covers(label, markers[index])
                {
                    return label
                }
                y += h + options.gap
            }
        }
        return nil
    }

    /// Whether `box` sits just over another marker (within `reach` above it), where that marker's
    /// leader line would have to pass.
    private func blocksWayUp(_ box: SIMD4<Double>, except index: Int, within reach: Double) -> Bool {
        markers.indices.contains { other in
            guard other != index else { return false }
            let m = markers[other]
            let top = m.center.y - m.radius
            return m.center.x > box.x && m.center.x < box.x + box.z && top >= box.y + box.w
                && top - (box.y + box.w) < reach
        }
    }

    /// Whether a leader line would cross a label already placed, or a marker other than its own.
    private func leaderCrosses(_ leader: (from: SIMD2<Double>, to: SIMD2<Double>), except index: Int) -> Bool {
        if labels.contains(where: {
            Self.segment(leader.from, leader.to, crosses: SIMD4($0.x, $0.y, $0.width, $0.height))
        }) {
            return true
        }
        return markers.indices.contains { other in
            guard other != index else { return false }
            let m = markers[other]
            return Self.segment(
                leader.from, leader.to,
                crosses: SIMD4(m.center.x - m.radius, m.center.y - m.radius, 2 * m.radius, 2 * m.radius))
        }
    }

    /// Whether boxes (x, y, width, height) overlap (touching edges do not).
    static func intersects(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Bool {
        a.x < b.x + b.z && b.x < a.x + a.z && a.y < b.y + b.w && b.y < a.y + a.w
    }

    /// Whether the segment from `a` to `b` passes through the inside of `box` (x, y, width,
    /// height): Liang–Barsky clipping of the segment to the box.
    static func segment(_ a: SIMD2<Double>, _ b: SIMD2<Double>, crosses box: SIMD4<Double>) -> Bool {
        let d = b - a
        var enter = 0.0
        var leave = 1.0
        // One side at a time (written out: a list of sides would allocate on every test).
        func clip(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q > 0 }  // parallel to this side: inside it or not at all
            let t = q / p
            if p < 0 { enter = max(enter, t) } else { leave = min(leave, t) }
            return true
        }
        guard clip(-d.x, a.x - box.x), clip(d.x, box.x + box.z - a.x), clip(-d.y, a.y - box.y),
            clip(d.y, box.y + box.w - a.y)
        else { return false }
        return enter < leave
    }

    /// Whether `label` hides `marker`'s dot.
    private static func covers(_ label: PlacedLabel, _ m: PlacedMarker) -> Bool {
        m.center.x + m.radius > label.x && m.center.x - m.radius < label.x + label.width
            && m.center.y + m.radius > label.y && m.center.y - m.radius < label.y + label.height
    }

    /// The box an edge arrow at `position` pointing at `angle` and its distance text (`size`) take:
    /// the arrow, about a text height long back from its tip, and the text just inside it.
    static func edgeBox(_ position: SIMD2<Double>, angle: Double, size: (width: Int, height: Int)) -> SIMD4<Double> {
        let (w, h) = (Double(size.width), Double(size.height))
        let direction = SIMD2(cos(angle), sin(angle))
        let textCentre = position - direction * (h + textReach(width: w, height: h, along: direction))
        let arrowCentre = position - direction * (h / 2)
        let low = SIMD2(
            min(textCentre.x - w / 2, arrowCentre.x - h / 2), min(textCentre.y - h / 2, arrowCentre.y - h / 2))
        let high = SIMD2(
            max(textCentre.x + w / 2, arrowCentre.x + h / 2), max(textCentre.y + h / 2, arrowCentre.y + h / 2))
        return SIMD4(low.x, low.y, high.x - low.x, high.y - low.y)
    }

    /// How far a `width`×`height` text's centre sits from its edge along `direction` (a unit
    /// vector): half its width beside a side arrow, half its height beside a top or bottom one.
    static func textReach(width: Double, height: Double, along direction: SIMD2<Double>) -> Double {
        let x = abs(direction.x) < 1e-9 ? Double.infinity : width / 2 / abs(direction.x)
        let y = abs(direction.y) < 1e-9 ? Double.infinity : height / 2 / abs(direction.y)
        return min(x, y)
    }

    /// Whether `label` would hide a marker's dot (any but `index`'s).
    private func coversMarker(_ label: PlacedLabel, except index: Int?) -> Bool {
        markers.indices.contains { other in other != index && Self.covers(label, markers[other]) }
    }

    /// Arrows at the border for ``outside`` (sorted nearest first), into ``edgeIndicators``.
    private mutating func placeEdges(
        width: Int, height: Int, heading: Double, options: MarkerLayoutOptions, keepClear: [SIMD4<Double>],
        labelSize: (String) -> (width: Int, height: Int)
    ) {
        guard options.maximumEdgeIndicators > 0 else { return }
        // A kept-clear strip across the whole frame (the banner at the bottom) moves the border
        // the arrows sit on; a box (the panel in a corner) is slid past, below.
        var top = 0.0
        var bottom = Double(height)
        for area in keepClear where area.x <= 0 && area.x + area.z >= Double(width) {
            if area.y <= 0 {
                top = max(top, area.y + area.w)
            } else if area.y + area.w >= Double(height) {
                bottom = min(bottom, area.y)
            }
        }
        // Slid past the panel and past every marker's dot: an arrow never hides a place in view.
        let boxes =
            keepClear.filter { !($0.x <= 0 && $0.x + $0.z >= Double(width)) }
            + markers.map { SIMD4($0.center.x - $0.radius, $0.center.y - $0.radius, 2 * $0.radius, 2 * $0.radius) }
        let centre = SIMD2(Double(width) / 2, Double(height) / 2)
        for point in outside {
            guard edgeIndicators.count < options.maximumEdgeIndicators else { break }
            var direction: SIMD2<Double>
            if let pixel = point.pixel, point.depth > 0 {
                direction = SIMD2(pixel.u, pixel.v) - centre
            } else {
                // Behind the camera: towards the side it is nearer to.
                var relative = (point.bearing - heading).truncatingRemainder(dividingBy: 360)
                if relative > 180 { relative -= 360 }
                if relative < -180 { relative += 360 }
                direction = SIMD2(relative < 0 ? -1 : 1, 0)
            }
            let length = (direction * direction).sum().squareRoot()
            guard length > 0 else { continue }
            direction /= length
            // Where the ray from the centre leaves the inset frame (above a banner, below a strip
            // across the top).
            let halfWidth = centre.x - options.edgeMargin
            let up = centre.y - top - options.edgeMargin
            let down = bottom - options.edgeMargin - centre.y
            guard up > 0, down > 0 else { continue }
            let scale = min(
                direction.x == 0 ? .infinity : halfWidth / abs(direction.x),
                direction.y == 0 ? .infinity : (direction.y > 0 ? down : up) / abs(direction.y))
            var position = centre + direction * scale
            let angle = atan2(direction.y, direction.x)
            // The place's name with its distance: two arrows "◀ 11 km" could not be told apart.
            let text = LabelTextCache.compose(
                name: point.pointOfInterest.name, distance: options.units.format(point.distance))
            let size = labelSize(text)
            // Slid along its border past a kept-clear box, or dropped when that leaves the frame.
            guard
                let clear = Self.slid(
                    position, angle: angle, size: size, past: boxes,
                    vertical: abs(abs(position.x - centre.x) - halfWidth) < 0.5, width: width, top: top, bottom: bottom,
                    margin: options.edgeMargin)
            else { continue }
            position = clear
            guard
                !edgeIndicators.contains(where: {
                    (($0.position - position) * ($0.position - position)).sum() < 30 * 30
                })
            else { continue }
            edgeIndicators.append(
                EdgeIndicator(
                    pointOfInterest: point.pointOfInterest, position: position, angle: angle,
                    distance: point.distance, text: text))
        }
    }

    /// `position` moved along its border (the left or right one when `vertical`, else the top or
    /// bottom) until the arrow's box clears every box in `boxes`, whichever way is shorter; nil
    /// when no place on the border does.
    private static func slid(
        _ position: SIMD2<Double>, angle: Double, size: (width: Int, height: Int), past boxes: [SIMD4<Double>],
        vertical: Bool, width: Int, top: Double, bottom: Double, margin: Double
    ) -> SIMD2<Double>? {
        var candidates = [position]
        for area in boxes where intersects(edgeBox(position, angle: angle, size: size), area) {
            let box = edgeBox(position, angle: angle, size: size)
            if vertical {
                candidates.append(SIMD2(position.x, position.y + (area.y + area.w - box.y) + 1))
                candidates.append(SIMD2(position.x, position.y - (box.y + box.w - area.y) - 1))
            } else {
                candidates.append(SIMD2(position.x + (area.x + area.z - box.x) + 1, position.y))
                candidates.append(SIMD2(position.x - (box.x + box.z - area.x) - 1, position.y))
            }
        }
        let fits = candidates.filter { candidate in
            let box = edgeBox(candidate, angle: angle, size: size)
            return !boxes.contains { intersects(box, $0) }
                && (vertical
                    ? candidate.y >= top + margin && candidate.y <= bottom - margin
                    : candidate.x >= margin && candidate.x <= Double(width) - margin)
        }
        return fits.min { ((($0 - position) * ($0 - position)).sum()) < ((($1 - position) * ($1 - position)).sum()) }
    }
}
