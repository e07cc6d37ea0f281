import Foundation

/// Where markers, labels and edge indicators go in one frame: computed from the projected POIs,
/// without drawing, so the rules can be tested on their own.
///
/// - Markers: POIs in view within ``MarkerLayoutOptions/maximumDistance``, at most
///   ``MarkerLayoutOptions/maximumMarkers`` (selected first, then nearest), listed far to near so
///   near ones are drawn on top. Nothing behind the camera gets a marker.
/// - Labels (`Name · 1.2 km`) are placed greedily by priority — selected, then nearest — at the
///   first free spot: right of the marker, left, above, below, then stacked upwards with a leader
///   line. A label that finds no free spot inside the frame is hidden and counted (a selected one
///   is pushed inside the frame instead); labels never overlap.
/// - Edge indicators: POIs within range but out of view get an arrow at the border, pointing the
///   way (behind the camera: the nearer side), the nearest first, skipping ones that would crowd an
///   arrow already placed.
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
    /// Where the edge arrows and their distances are drawn (x, y, width, height): labels keep off.
    private var reserved: [SIMD4<Double>] = []

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
    mutating func update(
        points: [ProjectedPointOfInterest], width: Int, height: Int, heading: Double, options: MarkerLayoutOptions,
        texts: LabelTextCache?, labelSize: (String) -> (width: Int, height: Int)
    ) {
        markers.removeAll(keepingCapacity: true)
        labels.removeAll(keepingCapacity: true)
        edgeIndicators.removeAll(keepingCapacity: true)
        visible.removeAll(keepingCapacity: true)
        outside.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        reserved.removeAll(keepingCapacity: true)
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
        placeEdges(width: width, height: height, heading: heading, options: options)
        for indicator in edgeIndicators {
            // The arrow (about a text height long, back from its tip) and its distance just inside.
            let size = labelSize(indicator.text)
            let (w, h) = (Double(size.width), Double(size.height))
            let direction = SIMD2(cos(indicator.angle), sin(indicator.angle))
            let textCentre = indicator.position - direction * (h + w / 2)
            let arrowCentre = indicator.position - direction * (h / 2)
            let low = SIMD2(
                min(textCentre.x - w / 2, arrowCentre.x - h / 2), min(textCentre.y - h / 2, arrowCentre.y - h / 2))
            let high = SIMD2(
                max(textCentre.x + w / 2, arrowCentre.x + h / 2), max(textCentre.y + h / 2, arrowCentre.y + h / 2))
            reserved.append(SIMD4(low.x, low.y, high.x - low.x, high.y - low.y))
        }
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
                ?? "\(marker.pointOfInterest.name) · \(distance)"
            let size = labelSize(text)
            if let label = place(
                text, size: size, marker: marker, index: index, width: width, height: height, options: options)
            {
                labels.append(label)
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
        // Beside (right, left), above, below, then stacked above with a leader line; computed one
        // by one rather than listed, so placing a label allocates nothing.
        for slot in 0..<(4 + max(1, options.maximumStack)) {
            let candidate: (x: Double, y: Double, leader: Bool)
            switch slot {
            case 0: candidate = (c.x + r, c.y - h / 2, false)
            case 1: candidate = (c.x - r - w, c.y - h / 2, false)
            case 2: candidate = (c.x - w / 2, c.y - r - h, false)
            case 3: candidate = (c.x - w / 2, c.y + r, false)
            default: candidate = (c.x - w / 2, c.y - r - h - Double(slot - 3) * (h + options.gap), true)
            }
            // Kept inside the frame horizontally (a label may slide along), never above or below it.
            let x = min(max(0, candidate.x), Double(width) - w)
            guard x >= 0, candidate.y >= 0, candidate.y + h <= Double(height) else { continue }
            var label = PlacedLabel(markerIndex: index, text: text, x: x, y: candidate.y, width: w, height: h)
            guard !labels.contains(where: { $0.overlaps(label) }), !coversMarker(label, except: index),
                !reserved.contains(where: {
                    label.x < $0.x + $0.z && $0.x < label.x + label.width && label.y < $0.y + $0.w
                        && $0.y < label.y + label.height
                })
            else { continue }
            if candidate.leader {
                label.leader = (
                    SIMD2(c.x, c.y - marker.radius), SIMD2(min(max(c.x, x + 4), x + w - 4), candidate.y + h)
                )
            }
            return label
        }
        // A selected POI is always labelled: beside its marker, pushed inside the frame, even over
        // other markers (labels of other selected POIs still never overlap it).
        guard marker.isSelected else { return nil }
        let x = min(max(0, c.x + r), Double(width) - w)
        var y = min(max(0, c.y - h / 2), Double(height) - h)
        while y + h <= Double(height) {
            let label = PlacedLabel(markerIndex: index, text: text, x: max(0, x), y: y, width: w, height: h)
            if !labels.contains(where: { $0.overlaps(label) }) { return label }
            y += h + options.gap
        }
        return nil
    }

    /// Whether `label` would hide another marker's dot.
    private func coversMarker(_ label: PlacedLabel, except index: Int) -> Bool {
        markers.indices.contains { other in
            guard other != index else { return false }
            let m = markers[other]
            return m.center.x + m.radius > label.x && m.center.x - m.radius < label.x + label.width
                && m.center.y + m.radius > label.y && m.center.y - m.radius < label.y + label.height
        }
    }

    /// Arrows at the border for ``outside`` (sorted nearest first), into ``edgeIndicators``.
    private mutating func placeEdges(width: Int, height: Int, heading: Double, options: MarkerLayoutOptions) {
        guard options.maximumEdgeIndicators > 0 else { return }
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
            // Where the ray from the centre leaves the inset frame.
            let halfWidth = centre.x - options.edgeMargin
            let halfHeight = centre.y - options.edgeMargin
            let scale = min(
                direction.x == 0 ? .infinity : halfWidth / abs(direction.x),
                direction.y == 0 ? .infinity : halfHeight / abs(direction.y))
            let position = centre + direction * scale
            guard
                !edgeIndicators.contains(where: {
                    (($0.position - position) * ($0.position - position)).sum() < 30 * 30
                })
            else { continue }
            edgeIndicators.append(
                EdgeIndicator(
                    pointOfInterest: point.pointOfInterest, position: position, angle: atan2(direction.y, direction.x),
                    distance: point.distance, text: options.units.format(point.distance)))
        }
    }
}
