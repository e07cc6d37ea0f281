import ARCompositor
import CaptureKit
import Foundation

/// A footage view's pipeline, once its location source is assigned: the footage opened, each
/// frame posed from the source (a recorded track looked up at the frame's time, or a fixed
/// position), drawn with the session's map data as it stands when the frame is read and the
/// view's selection (an AR overlay with an optional minimap, or for a map view the plan view over
/// the whole frame), written in order.
///
/// - Important: ``run()`` runs on a thread of its own.
final class FootageRun: @unchecked Sendable {
    private weak var view: GeoARView?
    private let path: String
    private let clock: FootageClock
    private let source: any LocationSource
    private let stop: StopRequest

    init(view: GeoARView, path: String, clock: FootageClock, source: any LocationSource, stop: StopRequest) {
        self.view = view
        self.path = path
        self.clock = clock
        self.source = source
        self.stop = stop
    }

    /// Reads, annotates and writes the footage; the summary, or why it could not start.
    func run() -> (summary: FootagePipeline.Summary?, error: GeoARError?) {
        guard let view, let map = view.session.mapDataSnapshot else { return (nil, nil) }
        let configuration = view.configuration
        guard case .footage(let destination, let workers) = configuration.output else {
            return (
                nil, .configuration("footage is written to a footage output (files, an MJPEG or Y4M file, or stdout)")
            )
        }
        let poses: FootagePipeline.Poses
        switch Self.poses(from: source, options: configuration.pose, clock: clock, messages: configuration.messages) {
        case .success(let found): poses = found
        case .failure(let error): return (nil, error)
        }
        do {
            try destination.checkNames(framesEvery: poses.frameInterval)
        } catch {
            return (nil, .configuration(error.description))
        }
        let reader: FootageReader
        do {
            reader = try FootageReader(path: path, decoderThreads: destination.decoderThreads)
        } catch {
            return (nil, .footage(error))
        }
        let first = reader.next()
        // A map view shows the navigation its session's AR view works out, as live.
        let isMap = view.kind == .map
        let follows = configuration.navigates && !isMap
        let route = follows ? map.data.route : nil
        var settings = AnnotationSettings(
            pointsOfInterest: map.data.pointsOfInterest, route: map.data.route, style: map.data.style,
            banner: map.data.banner, cameraFile: configuration.camera.calibrationFile,
            horizontalFieldOfView: configuration.camera.horizontalFieldOfView,
            heightAboveGround: configuration.camera.heightAboveGround, quality: configuration.quality,
            destination: destination, keepsRecords: configuration.sidecar != nil,
            inputRange: reader.y4mHeader.map { $0.isFullRange ? .full : .limited } ?? .full,
            minimap: configuration.minimap)
        settings.mapOnly = isMap
        settings.restartRows = configuration.restartRows
        settings.splices = configuration.splices
        settings.followsRoute = follows
        settings.selectsCenter = configuration.selectsCenter && !isMap
        let sink: FootageSink
        do {
            sink = try FootageSink(
                destination: destination, frameRate: reader.y4mHeader?.frameRate ?? Self.rate(clock.framesPerSecond),
                fullRange: reader.y4mHeader?.isFullRange ?? true, sidecar: configuration.sidecar,
                pool: reader.kind == .y4m ? reader.pool : nil, replacing: configuration.replacing)
        } catch {
            return (nil, .output(error))
        }
        let pipeline = FootagePipeline(
            reader: reader, first: first, settings: settings, poses: poses, route: route, sink: sink, workers: workers,
            frameObserver: { [weak view] info in
                guard let view else { return nil }
                view.navigationChanged(isMap ? view.session.navigationInfo : info.navigation)
                if let pose = info.pose { view.footagePosition(pose) }
                return view.currentSelection()
            },
            // The session's map data as it stands at each frame: changes are drawn from the next
            // frame read, as a camera view's are.
            mapData: { [weak view] in view?.session.mapDataSnapshot },
            // --select-center: the POI nearest the centre of each frame written is the view's
            // selection, written back through its binding, as a camera view's is.
            centreObserver: { [weak view] _, id in view?.viewSelected([id]) })
        view.setPhase(.running)
        let stop = self.stop
        let messages = configuration.messages
        return (pipeline.run(isInterrupted: { stop.isRequested }, onWarning: { messages.warning($0) }), nil)
    }

    /// Poses from a recorded track (its fixes on a timeline, the heading as the options say) or a
    /// fixed position.
    static func poses(
        from source: any LocationSource, options: LivePoseTracker.Options, clock: FootageClock,
        messages: PipelineMessages
    ) -> Result<FootagePipeline.Poses, GeoARError> {
        if let recorded = source as? RecordedLocationSource {
            let poses = TrackPoses(
                track: recorded.track, orientation: options.orientation, mount: options.mount, limits: options.limits,
                geoidSeparation: options.geoidSeparation)
            if let note = poses.note { messages.warning(note) }
            return .success(.track(poses.timeline, clock))
        }
        if let fixed = source as? FixedLocationSource {
            let body: DeviceOrientation
            if case .fixed(let orientation) = options.orientation {
                body = orientation
            } else {
                return .failure(
                    .configuration("a fixed position needs a fixed orientation too (heading, pitch, roll)"))
            }
            let coordinate = fixed.coordinate
            let pose = DevicePose(
                latitude: coordinate.latitude, longitude: coordinate.longitude, altitude: coordinate.altitude ?? 0,
                orientation: options.mount.cameraOrientation(body: body))
            return .success(.fixed(pose, clock))
        }
        return .failure(
            .configuration(
                "footage takes a recorded track (RecordedLocationSource) or a fixed position as its location source"))
    }

    /// A frame rate as a fraction (29.97 → 30000:1001).
    static func rate(_ fps: Double) -> (numerator: Int, denominator: Int) {
        let thousandths = Int((fps * 1000).rounded())
        return thousandths % 1000 == 0 ? (thousandths / 1000, 1) : (thousandths, 1000)
    }
}
