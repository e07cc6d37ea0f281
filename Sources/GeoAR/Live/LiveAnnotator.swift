import ARCompositor
import CaptureKit
import Foundation

/// Draws the overlay on live frames, one after the other: a frame and its pose in, planes with the
/// overlay out. It follows the session's map data (POIs from the next frame after they change; the
/// route and style by starting again) and draws the selection it is given.
///
/// - Important: Not thread-safe; one annotator belongs to one live capture's writer queue.
final class LiveAnnotator {
    /// What was drawn on a frame.
    struct Drawn {
        var image: YCbCrImage
        var annotation: FrameAnnotation
    }

    private let geometry: CameraGeometry
    private let navigates: Bool
    private let frames: FrameJPEGWriter
    private let sprites = SpriteCache()
    private var annotator: FrameAnnotator?
    private var units = DistanceUnits.metric
    private var selectedByStyle: Set<String> = []
    private var version = -1
    private var layoutVersion = -1
    private var cameras = CameraModels()
    /// The last frame's planes, converted into again (handed back by ``recycle(_:)``).
    private var spare = YCbCrImage(width: 16, height: 16, subsampling: .s422)

    /// - Throws: `JPEGError` when libjpeg-turbo cannot allocate.
    init(geometry: CameraGeometry, navigates: Bool) throws(JPEGError) {
        self.geometry = geometry
        self.navigates = navigates
        frames = try FrameJPEGWriter()
    }

    /// The distance units the style asks for (for instructions in the sidecar).
    var distanceUnits: DistanceUnits { units }

    /// Decodes `frame` to planes and draws the overlay for `pose`.
    ///
    /// - Throws: ``FrameConversionError`` for a damaged frame, or a configuration the annotator
    ///   cannot draw with (a font that cannot be opened, a calibration that does not fit).
    func draw(
        _ frame: VideoFrame, pose: LivePoseTracker.LivePose, map: MapDataSnapshot, selection: Set<String>,
        frameNumber: Int
    ) throws(LiveAnnotationError) -> Drawn {
        let annotator = try annotator(for: map)
        var image = spare
        spare = YCbCrImage(width: 16, height: 16, subsampling: .s422)
        do {
            try frames.convert(frame, into: &image)
        } catch {
            throw .frame(error)
        }
        guard let camera = cameras.camera(geometry, width: image.width, height: image.height) else {
            throw .configuration(
                "the calibration '\(geometry.calibrationFile ?? "")' does not fit \(image.width)x\(image.height) frames"
            )
        }
        annotator.layoutOptions.selected = selectedByStyle.union(selection)
        let estimate = pose.estimate
        let ground = estimate.pose.altitude - geometry.heightAboveGround
        let annotation: FrameAnnotation
        if navigates {
            annotation = annotator.annotate(
                &image, pose: estimate.pose, camera: camera, groundAltitude: ground, time: pose.receiverTime,
                speed: pose.speed, horizontalAccuracy: estimate.horizontalAccuracy, frame: frameNumber,
                headingAccuracy: estimate.headingAccuracy)
        } else {
            // Not navigating: the whole route on the ground, no panel.
            annotation = annotator.draw(
                &image, pose: estimate.pose, camera: camera, groundAltitude: ground, route: map.data.route,
                navigation: nil, time: pose.receiverTime, speed: pose.speed, frame: frameNumber,
                headingAccuracy: estimate.headingAccuracy)
        }
        return Drawn(image: image, annotation: annotation)
    }

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
        units = map.data.style.layout.units
        selectedByStyle = map.data.style.layout.selected
        version = map.version
        layoutVersion = map.layoutVersion
        return made
    }
}
