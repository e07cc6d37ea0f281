import ARCompositor
import ArcaptureCore
import CaptureKit
import Dispatch
import Footage

/// Everything a ``GeoARView`` is built with besides its session: where frames come from, where
/// they go, the camera's geometry, how poses are made, and where handlers run.
public struct GeoARConfiguration: Sendable {
    /// Where frames come from.
    public enum Source: Sendable {
        /// A V4L2 camera, opened when a location source is assigned.
        case camera(CaptureConfiguration)
        /// Recorded footage (a video file, MJPEG, Y4M, a folder of JPEGs, `-` for stdin), each
        /// frame timed as `timing` says (by default from the footage's own metadata: a video's GPS
        /// clock, its container's time, a JPEG's EXIF time); read when a location source is
        /// assigned (a recorded track, whose positions are looked up at each frame's time, or a
        /// fixed position). It runs as a ``FootageJob``, the one `arcapture annotate` runs.
        case footage(path: String, timing: FootageTiming)
        /// A recording its camera split into video files (GoPro's chapters `GX010123.MP4`,
        /// `GX020123.MP4`…, a DJI drone's files at 4 GB), `paths` in recording order, read as one
        /// video as ``footage(path:timing:)`` reads one: its frames, audio and telemetry continue
        /// across the joins (``FootageJob/chapters``).
        case recording(paths: [String], timing: FootageTiming)
        /// No camera: blank frames of `size` at `framesPerSecond` (a `CaptureSession(canvas:…)`),
        /// for a map view (``GeoMapView``) that draws the session alone (its plan, selection and
        /// navigation) beside an AR view on the one camera, or on a board with no camera at all.
        /// Like a camera, it starts when a location source is assigned and writes live outputs. An
        /// AR view needs a picture to draw over and refuses it.
        case canvas(size: FrameSize, framesPerSecond: Double)

        /// Recorded footage, each frame timed by `clock`.
        public static func footage(path: String, clock: FootageClock) -> Source {
            .footage(path: path, timing: FootageTiming(clock))
        }

        /// The footage's files and timing (one for ``footage(path:timing:)``), nil for a camera.
        var footageFiles: (paths: [String], timing: FootageTiming)? {
            switch self {
            case .camera, .canvas: nil
            case .footage(let path, let timing): ([path], timing)
            case .recording(let paths, let timing): (paths, timing)
            }
        }
    }

    /// Where annotated frames go.
    public enum Output: Sendable {
        /// Live: JPEG files from a template or a stream on stdout, which frames (a time-lapse, a
        /// count), and a JSON-lines log of each written frame.
        case live(CaptureDestination, LiveCaptureSettings, jsonLog: String?)
        /// Footage: files, an MJPEG or Y4M file, or stdout, on this many workers.
        case footage(FootageDestination, workers: Int)
        /// Nowhere: frames are annotated (handlers and bindings see them) and dropped.
        case none
    }

    /// Where frames come from.
    public var source: Source
    /// Where they go.
    public var output: Output
    /// One JSON line per frame (its time, the pose used, the POIs drawn and where), or nil.
    public var sidecar: String?
    /// JPEG quality for frames that are encoded.
    public var quality: Int
    /// MCU rows per restart interval in the JPEGs encoded (a restart marker after each; 0 for
    /// none): such frames can be spliced when annotated again, by arcapture or another tool.
    public var restartRows = 1
    /// Whether a camera's (or footage's) baseline JPEG frames are spliced: only the MCUs the
    /// overlay touches are re-encoded, with the frame's own tables (so at its own quality, not
    /// ``quality``); the rest keeps the camera's coded bits (restart intervals the overlay leaves
    /// alone, byte for byte).
    public var splices = true
    /// Whether existing files may be replaced.
    public var replacing: Bool
    /// How the camera sees.
    public var camera: CameraGeometry
    /// How poses are made from the location (and pose) sources.
    public var pose: LivePoseTracker.Options
    /// Whether the point of interest nearest the frame's centre is selected by the view itself,
    /// and written back through the ``GeoARView/selectedPOIs(_:)`` binding.
    public var selectsCenter: Bool
    /// A plan view of the session drawn as an inset in each AR frame (top right), or nil for none.
    /// A map view (``GeoMapView``) draws it over the whole frame instead.
    public var minimap: MapRenderer.Options?
    /// Whether the session's route is followed (navigation info, the panel); otherwise it is drawn
    /// whole, without navigation.
    public var navigates: Bool
    /// Where handlers run and bindings are told of changes: the main queue unless said. None runs
    /// on the capture session's queue. A Linux program runs its main queue while its top level
    /// awaits (an `async` main) or after `dispatchMain()`; a program that blocks its main thread
    /// gives the view a queue of its own, or follows ``GeoARView/phases`` and the other sequences.
    public var handlerQueue: DispatchQueue
    /// Where notes and warnings for people go.
    public var messages: PipelineMessages
    /// How long a camera that is not there yet (a USB camera being plugged in, a board booting
    /// before its camera enumerates) is waited for while authorization is settled, in the
    /// ``LoadPhase/waitingForCameraAuthorization`` phase; then the view fails naming the device.
    /// 10 seconds unless said; zero fails at once.
    public var authorizationTimeout: Duration
    /// How the camera session is made: real devices (tests give the scripted fake device).
    @_spi(Testing) public var cameraHooks = CameraHooks()

    /// Creates a configuration.
    public init(
        source: Source, output: Output = .none, sidecar: String? = nil, quality: Int = 90, replacing: Bool = true,
        camera: CameraGeometry = CameraGeometry(), pose: LivePoseTracker.Options = LivePoseTracker.Options(),
        selectsCenter: Bool = false, navigates: Bool = true, minimap: MapRenderer.Options? = nil,
        handlerQueue: DispatchQueue = .main,
        messages: PipelineMessages = .standardError, authorizationTimeout: Duration = .seconds(10)
    ) {
        self.source = source
        self.output = output
        self.sidecar = sidecar
        self.quality = quality
        self.replacing = replacing
        self.camera = camera
        self.pose = pose
        self.selectsCenter = selectsCenter
        self.navigates = navigates
        self.minimap = minimap
        self.handlerQueue = handlerQueue
        self.messages = messages
        self.authorizationTimeout = authorizationTimeout
    }
}
