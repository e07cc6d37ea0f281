import ARCompositor
import CaptureKit
import Foundation
import Positioning

/// A footage view's run, once its location source is assigned: the view's configuration, its
/// session's map data and its location source made into a ``FootageJob`` (the one `arcapture
/// annotate` runs), run with the view's observers: the session's map data as it stands when each
/// frame is read, the view's selection, its navigation and position handlers.
///
/// - Important: ``run()`` runs on a thread of its own.
final class FootageRun: @unchecked Sendable {
    private weak var view: GeoARView?
    /// The footage's files: one, or a recording's chapters in order.
    private let paths: [String]
    private let timing: FootageTiming
    private let source: any LocationSource
    private let stop: StopRequest

    init(view: GeoARView, paths: [String], timing: FootageTiming, source: any LocationSource, stop: StopRequest) {
        self.view = view
        self.paths = paths
        self.timing = timing
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
        let positions: FootagePosePlan.Positions
        switch Self.positions(from: source) {
        case .success(let found): positions = found
        case .failure(let error): return (nil, error)
        }
        let options = configuration.pose
        let orientation: FootagePosePlan.Orientation
        switch options.orientation {
        case .automatic: orientation = .automatic
        case .course: orientation = .course
        case .fixed(let fixed): orientation = .fixed(fixed)
        }
        // A map view shows the navigation its session's AR view works out, as live.
        let isMap = view.kind == .map
        var job = FootageJob(
            input: paths.first ?? "", timing: timing,
            poses: FootagePosePlan(
                positions: positions, orientation: orientation, mount: options.mount, limits: options.limits,
                geoidSeparation: options.geoidSeparation),
            map: map.data, camera: configuration.camera, output: destination, sidecar: configuration.sidecar,
            workers: workers)
        job.chapters = Array(paths.dropFirst())
        job.quality = configuration.quality
        job.restartRows = configuration.restartRows
        job.splices = configuration.splices
        job.minimap = configuration.minimap
        job.replacing = configuration.replacing
        job.mapOnly = isMap
        job.mapFrame = view.frame
        job.followsRoute = configuration.navigates
        job.selectsCenter = configuration.selectsCenter
        // A view draws what its track allows: frames without a pose pass through, as a camera
        // view's do while the fix is missing.
        job.passesThroughUnposed = true
        let prepared: PreparedFootageJob
        do {
            prepared = try job.prepare(messages: configuration.messages)
        } catch {
            return (nil, Self.viewError(error))
        }
        configuration.messages.note(prepared.timeNote)
        view.setPhase(.running)
        let stop = self.stop
        let messages = configuration.messages
        let summary = prepared.run(
            isInterrupted: { stop.isRequested }, onWarning: { messages.warning($0) },
            frameObserver: { [weak view] info in
                guard let view else { return nil }
                view.navigationChanged(isMap ? view.session.navigationInfo : info.navigation)
                if let pose = info.pose { view.footagePosition(pose) }
                return view.currentSelection()
            },
            // The session's map data as it stands at each frame: changes are drawn from the next
            // frame read, as a camera view's are.
            mapData: { [weak view] in view?.session.mapDataSnapshot },
            // The POI nearest the centre of each frame written is the view's selection, written
            // back through its binding, as a camera view's is.
            centreObserver: { [weak view] _, id in view?.viewSelected([id]) })
        for note in prepared.videoNotes { messages.warning(note) }
        return (summary, nil)
    }

    /// Positions from a recorded track (its fixes looked up at each frame's time) or a fixed
    /// position.
    static func positions(from source: any LocationSource) -> Result<FootagePosePlan.Positions, GeoARError> {
        if let recorded = source as? RecordedLocationSource { return .success(.track(recorded.track)) }
        if let fixed = source as? FixedLocationSource { return .success(.fixed(fixed.coordinate)) }
        return .failure(
            .configuration(
                "footage takes a recorded track (RecordedLocationSource) or a fixed position as its location source"))
    }

    /// A job's refusal as the view reports it.
    static func viewError(_ error: FootageJobError) -> GeoARError {
        switch error {
        case .input(let input): .footage(input)
        case .output(let output): .output(output)
        default: .configuration(error.description)
        }
    }
}
