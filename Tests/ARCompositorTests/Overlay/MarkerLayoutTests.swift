import Foundation
import Testing

@testable import ARCompositor

@Suite("Marker and label layout")
struct MarkerLayoutTests {
    /// A label 7 px per character and 18 px high, as a rule in place of real text.
    private let size: (String) -> (width: Int, height: Int) = { ($0.count * 7, 18) }

    private func point(_ id: String, u: Double?, v: Double?, distance: Double, bearing: Double = 0, depth: Double = 1)
        -> ProjectedPointOfInterest
    {
        ProjectedPointOfInterest(
            pointOfInterest: PointOfInterest(id: id, name: "Place \(id)", latitude: 0, longitude: 0, altitude: nil),
            pixel: u.flatMap { u in v.map { PixelPoint(u: u, v: $0) } }, depth: depth, distance: distance,
            bearing: bearing, elevation: 0,
            inView: u.map { (0..<1280).contains($0) } ?? false && v.map { (0..<720).contains($0) } ?? false,
            assumedAltitude: nil)
    }

    /// A crowded random scene: many POIs in a band across the middle of the frame.
    private func scene(seed: UInt64, count: Int) -> [ProjectedPointOfInterest] {
        var state = seed
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { index in
            point("p\(index)", u: next() * 1280, v: 250 + next() * 220, distance: 30 + next() * 3000)
        }
    }

    @Test("no two labels overlap and every label stays inside the frame", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func noOverlap(seed: UInt64) {
        var options = MarkerLayoutOptions()
        options.maximumMarkers = 60
        let layout = MarkerLayout(
            points: scene(seed: seed, count: 60), width: 1280, height: 720, heading: 0, options: options,
            labelSize: size)
        #expect(layout.labels.count + layout.hiddenLabels == layout.markers.count)
        #expect(layout.labels.count > 10)
        for (i, a) in layout.labels.enumerated() {
            #expect(a.x >= 0 && a.y >= 0 && a.x + a.width <= 1280 && a.y + a.height <= 720)
            for b in layout.labels[(i + 1)...] { #expect(!a.overlaps(b), "\(a.text) / \(b.text)") }
        }
        // Markers are listed far to near, so near ones are drawn on top.
        #expect(zip(layout.markers, layout.markers.dropFirst()).allSatisfy { $0.distance >= $1.distance })
    }

    @Test("a selected POI is always labelled, even the farthest in a crowd", arguments: [11, 12, 13] as [UInt64])
    func selectedAlwaysPlaced(seed: UInt64) {
        let points = scene(seed: seed, count: 80)
        let farthest = points.max { $0.distance < $1.distance }?.pointOfInterest.id ?? ""
        var options = MarkerLayoutOptions()
        options.maximumMarkers = 80
        options.selected = [farthest]
        let layout = MarkerLayout(
            points: points, width: 1280, height: 720, heading: 0, options: options, labelSize: size)
        let index = layout.markers.firstIndex { $0.pointOfInterest.id == farthest }
        #expect(index != nil)
        #expect(layout.labels.contains { $0.markerIndex == index })
        #expect(layout.markers.first { $0.pointOfInterest.id == farthest }?.isSelected == true)
    }

    @Test("nothing behind the camera gets a marker; it gets an arrow on the nearer side")
    func behindTheCamera() throws {
        let points = [
            point("ahead", u: 640, v: 360, distance: 200),
            point("behind-left", u: nil, v: nil, distance: 150, bearing: 250, depth: -100),
            point("behind-right", u: nil, v: nil, distance: 300, bearing: 120, depth: -100),
            point("off-right", u: 1500, v: 600, distance: 400, bearing: 40),
        ]
        let layout = MarkerLayout(
            points: points, width: 1280, height: 720, heading: 0, options: MarkerLayoutOptions(), labelSize: size)
        #expect(layout.markers.map(\.pointOfInterest.id) == ["ahead"])
        let arrows = Dictionary(uniqueKeysWithValues: layout.edgeIndicators.map { ($0.pointOfInterest.id, $0) })
        #expect(abs((arrows["behind-left"]?.position.x ?? 0) - 18) < 1e-9)
        #expect(abs((arrows["behind-right"]?.position.x ?? 0) - (1280 - 18)) < 1e-9)
        let offRight = try #require(arrows["off-right"])
        // From the centre towards (1500, 600): (860, 240), leaving the inset frame on the right.
        #expect(abs(offRight.position.x - (1280 - 18)) < 1e-9 && abs(offRight.angle - atan2(240.0, 860)) < 1e-9)
        #expect(abs(offRight.position.y - (360 + 240 * (622.0 / 860))) < 1e-9)
        // Named: two arrows "◀ 150 m" could not be told apart.
        #expect(arrows["behind-left"]?.text == "\u{2068}Place behind-left\u{2069} · 150 m")
    }

    @Test("distance and count limits leave POIs out and count them; markers shrink with distance")
    func limits() {
        var options = MarkerLayoutOptions()
        options.maximumMarkers = 2
        options.maximumDistance = 1000
        let points = [
            point("a", u: 100, v: 300, distance: 50), point("b", u: 400, v: 300, distance: 500),
            point("c", u: 700, v: 300, distance: 800), point("d", u: 1000, v: 300, distance: 2000),
        ]
        let layout = MarkerLayout(
            points: points, width: 1280, height: 720, heading: 0, options: options, labelSize: size)
        #expect(layout.markers.map(\.pointOfInterest.id) == ["b", "a"])
        #expect(layout.omitted == 2)
        #expect(layout.markers[1].radius == 14 && layout.markers[0].radius == 5)
        #expect(layout.labels.map(\.text).contains("\u{2068}Place a\u{2069} · 50 m"))
    }

    @Test(
        "distances read as people say them",
        arguments: [
            (DistanceUnits.metric, 42.4, "42 m"), (.metric, 847, "850 m"), (.metric, 1234, "1.2 km"),
            (.metric, 15_400, "15 km"),
            (.imperial, 20, "66 ft"), (.imperial, 250, "820 ft"), (.imperial, 2000, "1.2 mi"),
            (.imperial, 30_000, "19 mi"),
        ])
    func units(units: DistanceUnits, metres: Double, text: String) {
        #expect(units.format(metres) == text)
    }

    @Test("labels keep off the edge arrows and their distances")
    func labelsAvoidEdgeArrows() {
        // A marker near the right border whose label would go right (over the arrow for a POI off
        // to the right) and a POI out of view to the right.
        let points = [
            point("near", u: 1180, v: 360, distance: 200),
            point("off", u: 1500, v: 360, distance: 900, bearing: 80),
        ]
        let layout = MarkerLayout(
            points: points, width: 1280, height: 720, heading: 0, options: MarkerLayoutOptions(), labelSize: size)
        let arrow = layout.edgeIndicators.first
        #expect(arrow != nil)
        #expect(layout.labels.count == 1)
        guard let arrow, let label = layout.labels.first else { return }  // recorded by the expectations above
        // The arrow's tip and the middle of its distance text (about a text height inside).
        for spot in [arrow.position, arrow.position - SIMD2(cos(arrow.angle), sin(arrow.angle)) * 30] {
            let inside =
                spot.x >= label.x && spot.x <= label.x + label.width && spot.y >= label.y
                && spot.y <= label.y + label.height
            #expect(!inside, "label \(label.x),\(label.y) covers \(spot)")
        }
    }

    /// The layout the way the annotator makes it, with areas kept clear.
    private func layout(
        _ points: [ProjectedPointOfInterest], options: MarkerLayoutOptions = MarkerLayoutOptions(),
        keepClear: [SIMD4<Double>] = []
    ) -> MarkerLayout {
        var layout = MarkerLayout()
        layout.update(
            points: points, width: 1280, height: 720, heading: 0, options: options, texts: nil, keepClear: keepClear,
            labelSize: size)
        return layout
    }

    @Test("an edge arrow never covers a marker: it slides along its border past the dot")
    func arrowsClearMarkers() throws {
        // A place in view just inside the left border, and one out of view to the left whose
        // arrow would sit on it.
        let points = [
            point("near-border", u: 40, v: 360, distance: 90), point("out-left", u: -900, v: 360, distance: 500),
        ]
        let placed = MarkerLayout(
            points: points, width: 1280, height: 720, heading: 0, options: MarkerLayoutOptions(), labelSize: size)
        let marker = try #require(placed.markers.first)
        let dot = SIMD4(
            marker.center.x - marker.radius, marker.center.y - marker.radius, 2 * marker.radius, 2 * marker.radius)
        let arrow = try #require(placed.edgeIndicators.first)
        #expect(
            !MarkerLayout.intersects(
                MarkerLayout.edgeBox(arrow.position, angle: arrow.angle, size: size(arrow.text)), dot))
        // Where the arrow would have been, straight out from the centre, it covers the dot.
        let straight = SIMD2(18.0, 360)
        #expect(MarkerLayout.intersects(MarkerLayout.edgeBox(straight, angle: .pi, size: size(arrow.text)), dot))
        #expect(arrow.position.x == 18 && arrow.position.y != 360)
    }

    @Test("markers, gaps and margins scale with frames taller than 720 rows, as text does")
    func scaledForLargeFrames() {
        let options = MarkerLayoutOptions()
        #expect(options.scaled(forFrameHeight: 480) == options)
        #expect(options.scaled(forFrameHeight: 720) == options)
        let uhd = options.scaled(forFrameHeight: 2160)
        #expect(uhd.maximumRadius == 42 && uhd.minimumRadius == 15 && uhd.gap == 12 && uhd.edgeMargin == 54)
        #expect(uhd.maximumMarkers == options.maximumMarkers && uhd.maximumDistance == options.maximumDistance)
        #expect(MarkerLayoutOptions.frameScale(height: 1080) == 1.5)
    }

    @Test("edge arrows and labels keep off the banner and the panel: moved above the one, slid past the other")
    func keepClearAreas() {
        let banner = SIMD4(0.0, 680, 1280, 40)
        let panel = SIMD4(10.0, 10, 300, 80)
        // Out of view: straight below (under the banner), up and to the left (under the panel), and
        // behind on the left (the left border, below the panel).
        let points = [
            point("below", u: 640, v: 2000, distance: 300), point("corner", u: -200, v: -150, distance: 400),
            point("label", u: 150, v: 700, distance: 100),
        ]
        let plain = layout(points)
        let cleared = layout(points, keepClear: [banner, panel])
        #expect(plain.edgeIndicators.count == 2 && cleared.edgeIndicators.count == 2)
        // Without the areas, the arrows do fall in them (the test would prove nothing otherwise).
        let plainBoxes = plain.edgeIndicators.map {
            MarkerLayout.edgeBox($0.position, angle: $0.angle, size: size($0.text))
        }
        #expect(plainBoxes.contains { MarkerLayout.intersects($0, banner) })
        #expect(plainBoxes.contains { MarkerLayout.intersects($0, panel) })
        for arrow in cleared.edgeIndicators {
            let box = MarkerLayout.edgeBox(arrow.position, angle: arrow.angle, size: size(arrow.text))
            #expect(!MarkerLayout.intersects(box, banner) && !MarkerLayout.intersects(box, panel), "\(arrow)")
        }
        // The arrow below keeps pointing down, now just above the banner.
        let below = cleared.edgeIndicators.first { $0.pointOfInterest.id == "below" }
        #expect(below.map { $0.position.y < 680 && $0.position.y > 600 && sin($0.angle) > 0.99 } == true)
        for label in cleared.labels {
            #expect(!MarkerLayout.intersects(SIMD4(label.x, label.y, label.width, label.height), banner))
        }
    }

    @Test(
        "in a crowd, no leader line crosses another label or marker, and no label covers a marker, its own included",
        arguments: [21, 22, 23, 24, 25] as [UInt64])
    func leadersAndMarkersClear(seed: UInt64) {
        var options = MarkerLayoutOptions()
        options.maximumMarkers = 60
        // A tight cluster on top of the random band: what stacks labels with leaders.
        var points = scene(seed: seed, count: 40)
        for index in 0..<12 {
            points.append(
                point("c\(index)", u: 600 + Double(index % 6) * 9, v: 330 + Double(index / 6) * 3, distance: 2500))
        }
        let placed = layout(points, options: options)
        #expect(placed.labels.contains { $0.leader != nil }, "the scene stacks some labels")
        for label in placed.labels {
            let box = SIMD4(label.x, label.y, label.width, label.height)
            for marker in placed.markers {
                let dot = SIMD4(
                    marker.center.x - marker.radius, marker.center.y - marker.radius, 2 * marker.radius,
                    2 * marker.radius)
                #expect(!MarkerLayout.intersects(box, dot), "\(label.text) covers \(marker.pointOfInterest.id)")
            }
            guard let leader = label.leader else { continue }
            for other in placed.labels where other != label {
                #expect(
                    !MarkerLayout.segment(
                        leader.from, leader.to, crosses: SIMD4(other.x, other.y, other.width, other.height)),
                    "\(label.text)'s leader crosses \(other.text)")
            }
            for (index, marker) in placed.markers.enumerated() where index != label.markerIndex {
                let dot = SIMD4(
                    marker.center.x - marker.radius, marker.center.y - marker.radius, 2 * marker.radius,
                    2 * marker.radius)
                #expect(!MarkerLayout.segment(leader.from, leader.to, crosses: dot))
            }
        }
    }

    @Test("a label near the border does not slide over its own marker")
    func ownMarkerKeptVisible() throws {
        // Right of the marker does not fit, so the label slid left over the dot; now it goes left.
        let placed = layout([point("edge", u: 1270, v: 360, distance: 100)])
        let marker = try #require(placed.markers.first)
        let label = try #require(placed.labels.first)
        #expect(label.x + label.width <= marker.center.x - marker.radius, "\(label)")
    }

    @Test("the segment test: through, beside, touching, inside")
    func segmentCrossing() {
        let box = SIMD4(10.0, 10, 20, 10)
        #expect(MarkerLayout.segment(SIMD2(0, 15), SIMD2(40, 15), crosses: box))
        #expect(MarkerLayout.segment(SIMD2(15, 12), SIMD2(16, 13), crosses: box))
        #expect(!MarkerLayout.segment(SIMD2(0, 0), SIMD2(40, 5), crosses: box))
        #expect(!MarkerLayout.segment(SIMD2(10, 0), SIMD2(10, 30), crosses: box), "along the edge")
        #expect(!MarkerLayout.segment(SIMD2(0, 30), SIMD2(5, 0), crosses: box))
    }
}
