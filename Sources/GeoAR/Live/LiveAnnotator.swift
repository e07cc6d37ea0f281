import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation
import JPEGKit

/// Draws the overlay on live frames, one after the other: a frame and its pose in, planes with the
/// overlay out. It follows the session's map data (POIs from the next frame after they change; the
/// route and style by starting again) and draws the selection it is given.
///
/// - Important: Not thread-safe; one annotator belongs to one live capture's writer queue.
final class LiveAnnotator {
    /// What was drawn on a frame.
    struct Drawn {
        /// The frame's planes with the overlay; for a spliced frame only the rows drawn on hold
        /// samples (its size is right).
        var image: YCbCrImage
        /// The spliced frame, when the camera's MJPEG could be spliced (write this, not `image`).
        var jpeg: [UInt8]? = nil
        /// Why a camera's JPEG frame was drawn on whole although splicing was on (nil otherwise).
        var notSpliced: String? = nil
        /// The frame's size.
        var size: (width: Int, height: Int)
        /// The AR overlay drawn; nil for a map view's frame.
        var annotation: FrameAnnotation?
    }

    private let geometry: CameraGeometry
    private let navigates: Bool
    /// The plan view, as an inset (or, for a map view, over the whole frame).
    private let mapOptions: MapRenderer.Options?
    private var mapRenderer: MapRenderer?
    private let mapOnly: Bool
    /// The part of a map view's frames its plan is drawn into.
    private let mapFrame: ViewFrame
    /// Recent positions, oldest first, for the map's trail.
    private var track: [SIMD2<Double>] = []
    private let frames: FrameJPEGWriter
    private let sprites = SpriteCache()
    private var annotator: FrameAnnotator?
    private var units = DistanceUnits.metric
    private var selectedByStyle: Set<String> = []
    private var version = -1
    private var layoutVersion = -1
    private var cameras = CameraModels()
    /// The camera's baseline MJPEG is spliced rather than decoded whole (nil: never).
    private let splicing: SplicedDrawing?
    /// The last frame's planes, converted into again (handed back by ``recycle(_:)``).
    private var spare = LiveAnnotator.placeholder

    /// - Throws: `JPEGError` when libjpeg-turbo cannot allocate.
    init(
        geometry: CameraGeometry, navigates: Bool, map: MapRenderer.Options? = nil, mapOnly: Bool = false,
        mapFrame: ViewFrame = .full, splices: Bool = false
    ) throws(JPEGError) {
        self.mapFrame = mapFrame
        // A map view covers the whole frame: nothing to gain.
        splicing = splices && !mapOnly ? SplicedDrawing() : nil
        self.geometry = geometry
        self.navigates = navigates
        self.mapOnly = mapOnly
        mapOptions = map ?? (mapOnly ? MapRenderer.Options() : nil)
        frames = try FrameJPEGWriter()
    }

    /// The distance units the style asks for (for instructions in the sidecar).
    var distanceUnits: DistanceUnits { units }

    /// Decodes `frame` to planes and draws the overlay for `pose`, the frame first zoomed by `zoom`
    /// about its centre (a digital zoom, drawn with the camera narrowed to match; the view's
    /// frame stage passes 1 for a map view, whose plan is not zoomed).
    ///
    /// - Throws: ``FrameConversionError`` for a damaged frame, or a configuration the annotator
    ///   cannot draw with (a font that cannot be opened, a calibration that does not fit).
    func draw(
        _ frame: VideoFrame, pose: LivePoseTracker.LivePose, map: MapDataSnapshot, selection: Set<String>,
        frameNumber: Int, zoom: Double = 1
    ) throws(LiveAnnotationError) -> Drawn {
        let annotator = try annotator(for: map)
        annotator.layoutOptions.selected = selectedByStyle.union(selection)
        track.append(SIMD2(pose.estimate.pose.latitude, pose.estimate.pose.longitude))
        if track.count > Self.trackLength { track.removeFirst(track.count - Self.trackLength) }
        // The route followed once, before drawing (a spliced frame may be drawn again whole).
        let guidance =
            navigates && !mapOnly
            ? annotator.follow(
                pose.estimate.pose, speed: pose.speed, horizontalAccuracy: pose.estimate.horizontalAccuracy,
                time: pose.receiverTime)
            // Not navigating: the whole route on the ground, no panel.
            : (route: map.data.route, navigation: nil)
        // (A frame of another size than the stream's goes the full way, which says so.)
        var notSpliced: String?
        // A zoomed frame is scaled whole: there is nothing of the camera's picture to keep.
        if zoom > 1, splicing != nil { notSpliced = "zoomed in: the whole frame is scaled" }
        if let splicing, zoom <= 1, frame.format.pixelFormat == .mjpeg || frame.format.pixelFormat == .jpeg,
            JPEGStructure.problem(in: frame.data) == nil, JPEGStructure.imageSize(of: frame.data) == frame.format.size
        {
            // Only the MCUs drawn on are decoded and encoded again.
            var drawn = Result<FrameAnnotation?, LiveAnnotationError>.success(nil)
            var size = (width: 0, height: 0)
            let outcome = splicing.draw(frame.data, annotator: annotator, map: mapRenderer) { image in
                size = (image.width, image.height)
                drawn = Result { () throws(LiveAnnotationError) in
                    try overlay(
                        on: &image, annotator: annotator, pose: pose, map: map, guidance: guidance,
                        frameNumber: frameNumber, zoom: 1)
                }
            }
            switch outcome {
            case .spliced(let jpeg):
                return Drawn(image: Self.placeholder, jpeg: jpeg, size: size, annotation: try drawn.get())
            case .damaged(let why): throw .frame(.undecodable(.corrupt(why)))
            case .notSpliced(let why): notSpliced = why
            }
        }
        var image = spare
        spare = Self.placeholder
        do {
            try frames.convert(frame, into: &image)
        } catch {
            throw .frame(error)
        }
        image.zoom(by: zoom)
        let annotation = try overlay(
            on: &image, annotator: annotator, pose: pose, map: map, guidance: guidance, frameNumber: frameNumber,
            zoom: zoom)
        return Drawn(
            image: image, notSpliced: notSpliced, size: (image.width, image.height), annotation: annotation)
    }

    /// `frame` decoded and zoomed by `zoom`, nothing drawn (it has no pose): a zoomed view's picture
    /// stays zoomed while it waits for a position.
    ///
    /// - Throws: ``FrameConversionError`` for a damaged frame.
    func zoomed(_ frame: VideoFrame, by zoom: Double) throws(FrameConversionError) -> YCbCrImage {
        var image = spare
        spare = Self.placeholder
        try frames.convert(frame, into: &image)
        image.zoom(by: zoom)
        return image
    }

    private static let placeholder = YCbCrImage(width: 16, height: 16, subsampling: .s422)

    /// Draws the overlay (or a map view's plan) on `image`; the AR overlay drawn, nil for a map.
    private func overlay(
        on image: inout YCbCrImage, annotator: FrameAnnotator, pose: LivePoseTracker.LivePose, map: MapDataSnapshot,
        guidance: (route: NavigationRoute?, navigation: NavigationInfo?), frameNumber: Int, zoom: Double
    ) throws(LiveAnnotationError) -> FrameAnnotation? {
        guard let camera = cameras.camera(geometry, width: image.width, height: image.height)?.zoomed(by: zoom) else {
            throw .configuration(
                "the calibration '\(geometry.calibrationFile ?? "")' does not fit \(image.width)x\(image.height) frames"
            )
        }
        let estimate = pose.estimate
        let ground = estimate.pose.altitude - geometry.heightAboveGround
        if mapOnly, let mapRenderer {
            // A map view: the plan view over its part of the frame (the whole, or an inset over the
            // camera's picture); its navigation is the session's, as the AR view follows it.
            let canvas = mapFrame.rect(width: image.width, height: image.height)
            mapRenderer.draw(
                into: &image, rect: canvas, latitude: estimate.pose.latitude, longitude: estimate.pose.longitude,
                heading: estimate.pose.orientation.heading, pointsOfInterest: map.data.pointsOfInterest,
                selected: annotator.layoutOptions.selected, route: map.data.route, track: track)
            return nil
        }
        let annotation = annotator.draw(
            &image, pose: estimate.pose, camera: camera, groundAltitude: ground, route: guidance.route,
            navigation: guidance.navigation, time: pose.receiverTime, speed: pose.speed, frame: frameNumber,
            headingAccuracy: estimate.headingAccuracy)
        if let mapRenderer {
            MinimapInset.draw(
                mapRenderer, on: &image, pose: estimate.pose, pointsOfInterest: map.data.pointsOfInterest,
                selected: annotator.layoutOptions.selected, route: map.data.route, track: track)
        }
        return annotation
    }

    /// Positions kept for the map's trail.
    private static let trackLength = 600

    /// Takes back a drawn frame's planes once written, to convert the next frame into.
    func recycle(_ image: consuming YCbCrImage) {
        spare = image
    }

    /// The annotator for the map data: made again when the route or style changed, given the new
    /// POIs when only they did.
    private func annotator(for map: MapDataSnapshot) throws(LiveAnnotationError) -> FrameAnnotator {
        if let annotator, map.layoutVersion == layoutVersion {
            if map.version != version {
                annotator.pointsOfInterest = map.data.pointsOfInterest
                version = map.version
            }
            return annotator
        }
        let made: FrameAnnotator
        do {
            made = try FrameAnnotator(
                pointsOfInterest: map.data.pointsOfInterest, route: navigates ? map.data.route : nil,
                style: map.data.style.style, layout: map.data.style.layout, banner: map.data.banner, sprites: sprites)
        } catch {
            throw .configuration(error.description)
        }
        annotator = made
        // The map in the session's style, made again with it.
        mapRenderer = mapOptions.map { MapRenderer(style: map.data.style.style, options: $0) }
        units = map.data.style.layout.units
        selectedByStyle = map.data.style.layout.selected
        version = map.version
        layoutVersion = map.layoutVersion
        return made
    }
}
