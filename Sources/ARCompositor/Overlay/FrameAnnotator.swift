import ArcaptureCore
import Foundation

/// The whole overlay for a stream of frames: POIs laid out and drawn, the route followed and drawn
/// with its navigation panel, and the banner, in that order from the ground up.
///
/// It keeps state between frames (the navigator's progress along the route, the compositor's
/// caches), so one annotator serves one stream, frames in order. Not thread-safe.
public final class FrameAnnotator {
    /// Draws.
    public let compositor: Compositor
    /// The points of interest; a change is drawn from the next frame (a live session's map data).
    public var pointsOfInterest: [PointOfInterest]
    /// Marker limits, selection and units.
    public var layoutOptions: MarkerLayoutOptions
    /// The banner, if any.
    public let banner: BannerTemplate?
    /// How markers, labels and edge arrows fade when the heading is uncertain.
    public var headingAccuracyPolicy = HeadingAccuracyPolicy()
    private var navigator: RouteNavigator?
    /// When set, ``draw(_:pose:camera:groundAltitude:route:navigation:time:utcOffset:speed:frame:headingAccuracy:)``
    /// does not project the POIs or lay them out again: it draws the layout of the call before,
    /// which must have had the same inputs. A spliced JPEG frame is drawn twice (once to find the
    /// MCUs the overlay touches, then on their decoded samples), and with many POIs in view their
    /// layout cost as much as the JPEG work of a small frame.
    public var reusesLastLayout = false
    private let labelTexts = LabelTextCache()
    /// Kept between frames so that a stream of frames reuses their storage.
    private var projected: [ProjectedPointOfInterest] = []
    private var layout = MarkerLayout()
    /// The banner's and the panel's areas on the current frame (kept: no allocation per frame).
    private var keepClear: [SIMD4<Double>] = []

    /// Creates an annotator.
    ///
    /// - Parameters:
    ///   - pointsOfInterest: the POIs.
    ///   - route: the route to follow, if any.
    ///   - navigation: thresholds for following it.
    ///   - style: colours, sizes, layers and the font.
    ///   - layout: marker limits, selection and units.
    ///   - banner: the banner's template.
    ///   - sampleRange: the range of the frames' samples (full for JPEG; Y4M says which).
    ///   - sprites: where composed labels, markers and panels are kept; annotators with the same
    ///     style and range on several threads may share one (each label is then composed once).
    /// - Throws: ``FontError`` when the style's font cannot be opened.
    public init(
        pointsOfInterest: [PointOfInterest], route: NavigationRoute? = nil,
        navigation: NavigationOptions = NavigationOptions(), style: OverlayStyle = OverlayStyle(),
        layout: MarkerLayoutOptions = MarkerLayoutOptions(), banner: BannerTemplate? = nil,
        sampleRange: SampleRange = .full, sprites: SpriteCache = SpriteCache()
    ) throws(FontError) {
        compositor = try Compositor(style: style, sampleRange: sampleRange, sprites: sprites)
        self.pointsOfInterest = pointsOfInterest
        layoutOptions = layout
        self.banner = banner
        navigator = route.map { RouteNavigator(route: $0, options: navigation) }
    }

    /// Draws the overlay for one frame.
    ///
    /// - Parameters:
    ///   - image: the frame, drawn on in place.
    ///   - pose: the device's pose at the frame's time.
    ///   - camera: the camera model at the frame's size.
    ///   - groundAltitude: the ground's ellipsoidal altitude (the device's minus its height above it).
    ///   - time: the frame's time, for the banner and the speed's smoothing.
    ///   - speed: ground speed in m/s, for the remaining time.
    ///   - horizontalAccuracy: the fix's error in metres, for off-route detection.
    ///   - frame: the frame's number, for the banner.
    ///   - headingAccuracy: the heading's error in degrees, when known: markers fade by
    ///     ``headingAccuracyPolicy``.
    /// - Returns: what was drawn.
    @discardableResult
    public func annotate(
        _ image: inout YCbCrImage, pose: DevicePose, camera: CameraModel, groundAltitude: Double, time: Date? = nil,
        speed: Double? = nil, horizontalAccuracy: Double? = nil, frame: Int? = nil, headingAccuracy: Double? = nil
    ) -> FrameAnnotation {
        let guidance = follow(pose, speed: speed, horizontalAccuracy: horizontalAccuracy, time: time)
        return draw(
            &image, pose: pose, camera: camera, groundAltitude: groundAltitude, route: guidance.route,
            navigation: guidance.navigation, time: time, speed: speed, frame: frame, headingAccuracy: headingAccuracy)
    }

    /// Follows the route to `pose`, as `annotate(_:pose:camera:groundAltitude:time:speed:horizontalAccuracy:frame:headingAccuracy:)`
    /// does before drawing: once per frame, in order. For a caller that may draw a frame twice
    /// (a spliced frame found damaged is drawn again whole) and must not follow the route twice.
    ///
    /// - Returns: the route to draw (nil without one, or once arrived) and the navigation info.
    public func follow(_ pose: DevicePose, speed: Double?, horizontalAccuracy: Double?, time: Date?) -> (
        route: NavigationRoute?, navigation: NavigationInfo?
    ) {
        guard var navigator else { return (nil, nil) }
        let navigation = navigator.update(
            latitude: pose.latitude, longitude: pose.longitude, speed: speed, horizontalAccuracy: horizontalAccuracy,
            time: time?.timeIntervalSince1970)
        self.navigator = navigator
        return (navigator.hasArrived ? nil : navigator.route, navigation)
    }

    /// Draws one frame's overlay with navigation worked out by the caller: for frames drawn out of
    /// order on several threads (footage), where the route is followed in frame order first and
    /// each frame then drawn by its own worker's annotator.
    ///
    /// - Parameters:
    ///   - image: the frame, drawn on in place.
    ///   - pose: the device's pose at the frame's time.
    ///   - camera: the camera model at the frame's size.
    ///   - groundAltitude: the ground's ellipsoidal altitude.
    ///   - route: the route to draw from `navigation`'s snapped position, or nil for none.
    ///   - navigation: where the traveller is on it (nil: the whole route and no panel).
    ///   - time: the frame's time, for the banner.
    ///   - utcOffset: seconds east of UTC to show `time` in (the footage's stated zone); nil: `TZ`'s.
    ///   - speed: ground speed in m/s, for the banner.
    ///   - frame: the frame's number, for the banner.
    ///   - headingAccuracy: the heading's error in degrees, when known: markers fade by
    ///     ``headingAccuracyPolicy`` (the route, the panel and the banner do not).
    /// - Returns: what was drawn.
    @discardableResult
    public func draw(
        _ image: inout YCbCrImage, pose: DevicePose, camera: CameraModel, groundAltitude: Double,
        route: NavigationRoute?, navigation: NavigationInfo?, time: Date? = nil, utcOffset: Int? = nil,
        speed: Double? = nil, frame: Int? = nil, headingAccuracy: Double? = nil
    ) -> FrameAnnotation {
        let projector = Projector(pose: pose, camera: camera, groundAltitude: groundAltitude)
        if let route { compositor.drawRoute(route, info: navigation, projector: projector, on: &image) }
        let height = image.height
        let text = banner?.render(
            BannerValues(
                time: time, latitude: pose.latitude, longitude: pose.longitude, altitude: pose.altitude,
                heading: pose.orientation.heading, speed: speed, frame: frame, utcOffset: utcOffset),
            units: layoutOptions.units)
        if !reusesLastLayout {
            projector.project(pointsOfInterest, into: &projected)
            // The banner and the panel are drawn last, over everything: arrows and labels keep off
            // them.
            keepClear.removeAll(keepingCapacity: true)
            if let text, let area = compositor.bannerArea(text, width: image.width, height: height) {
                keepClear.append(area)
            }
            if let navigation, let area = compositor.panelArea(navigation, units: layoutOptions.units, on: image) {
                keepClear.append(area)
            }
            layout.update(
                points: projected, width: image.width, height: height, heading: pose.orientation.heading,
                options: layoutOptions.scaled(forFrameHeight: height), texts: labelTexts, keepClear: keepClear
            ) { [compositor] in compositor.labelSize($0, frameHeight: height) }
        }
        let opacity = headingAccuracyPolicy.opacity(headingAccuracy: headingAccuracy)
        compositor.draw(layout, on: &image, opacity: opacity)
        if let navigation { compositor.drawPanel(navigation, units: layoutOptions.units, on: &image) }
        if let text { compositor.drawBanner(text, on: &image) }
        return FrameAnnotation(
            layout: drawnLayout(), navigation: navigation, banner: text, markerOpacity: opacity)
    }

    /// The layout as drawn: what the style's layers leave out is not reported as drawn (a summary
    /// of "30 markers" for `{"layers": []}` would describe nothing on the frame). Laying out still
    /// used every marker, so labels keep the places they would have had.
    private func drawnLayout() -> MarkerLayout {
        let layers = compositor.style.layers
        guard !layers.isSuperset(of: [.markers, .labels, .edgeArrows]) else { return layout }
        var drawn = layout
        if !layers.contains(.markers) { drawn.markers = [] }
        if !layers.contains(.labels) {
            drawn.labels = []
            drawn.hiddenLabels = 0
        }
        if !layers.contains(.edgeArrows) { drawn.edgeIndicators = [] }
        return drawn
    }

    /// Draws the overlay for one packed YUYV frame (a webcam's uncompressed output), as
    /// `annotate(_:pose:camera:groundAltitude:time:speed:horizontalAccuracy:frame:headingAccuracy:)`
    /// does on planar 4:2:2, of which the frame is unpacked and packed back (no RGB anywhere).
    @discardableResult
    public func annotate(
        _ image: inout YUYVImage, pose: DevicePose, camera: CameraModel, groundAltitude: Double, time: Date? = nil,
        speed: Double? = nil, horizontalAccuracy: Double? = nil, frame: Int? = nil, headingAccuracy: Double? = nil
    ) -> FrameAnnotation {
        var planar = image.planar(x: 0, y: 0, width: image.width, height: image.height)
        let drawn = annotate(
            &planar, pose: pose, camera: camera, groundAltitude: groundAltitude, time: time, speed: speed,
            horizontalAccuracy: horizontalAccuracy, frame: frame, headingAccuracy: headingAccuracy)
        image.store(planar, x: 0, y: 0)
        return drawn
    }
}
