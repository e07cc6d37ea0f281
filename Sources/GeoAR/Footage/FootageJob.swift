import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation

/// One footage job: the footage, how its frames are timed and posed, what is drawn on them, and
/// where they go. The one place that decides a recorded frame's time, pose, sample range and
/// output: `arcapture annotate` (footage, photos, `--batch` rows) and a ``GeoARView`` over footage
/// both run it.
///
/// ```swift
/// var job = FootageJob(
///     input: "ride.mp4", poses: FootagePosePlan(positions: .footage), map: map,
///     camera: CameraGeometry(horizontalFieldOfView: 118), output: .videoFile("out.mp4", .mp4, .standard))
/// let prepared = try job.prepare(messages: .standardError)
/// let summary = prepared.run()
/// ```
public struct FootageJob: Sendable {
    /// The footage: a video file, an MJPEG or Y4M file, a folder of JPEGs, or `-` for stdin.
    public var input: String
    /// The video files that continue ``input`` when its camera split the recording (GoPro's
    /// `GX020123.MP4` after `GX010123.MP4`, a DJI drone's next file at 4 GB), in recording order:
    /// read with it as one video, its frames, audio and telemetry continuing across the joins
    /// (`FootageReader.init(chapters:decoderThreads:)`). Empty for footage in one file.
    public var chapters: [String] = []
    /// How frames are timed.
    public var timing: FootageTiming
    /// How frames are posed.
    public var poses: FootagePosePlan
    /// The points of interest, route, style and banner drawn.
    public var map: MapData
    /// How the camera sees.
    public var camera: CameraGeometry
    /// Where frames go.
    public var output: FootageDestination
    /// One JSON line per frame (its time, the pose used, the POIs drawn and where), or nil.
    public var sidecar: String?
    /// Frames drawn in parallel.
    public var workers: Int
    /// JPEG quality for frames that are encoded whole.
    public var quality = 90
    /// MCU rows per restart interval in the JPEGs encoded (0: none).
    public var restartRows = 1
    /// Whether baseline JPEG frames are spliced (only the MCUs drawn on re-encoded).
    public var splices = true
    /// A plan view inset at the top right of each frame, or nil for none.
    public var minimap: MapRenderer.Options?
    /// Whether existing files may be replaced.
    public var replacing = false
    /// Whether footage the track cannot pose at all is written anyway, unannotated (else refused
    /// with ``FootageJobError/trackMissed(_:)`` before anything is written).
    public var passesThroughUnposed = false
    /// Whether the plan view is drawn over each whole frame instead of the overlay (a map view).
    public var mapOnly = false
    /// The part of each frame the plan view covers, with ``mapOnly`` (the rest is the footage's
    /// picture).
    public var mapFrame = ViewFrame.full
    /// Whether the route is followed (navigation) rather than drawn whole.
    public var followsRoute = true
    /// Whether each frame's marker nearest the centre is found (a view's select-centre).
    public var selectsCenter = false
    /// Whether ``input`` is one photo, read as a folder of one: drawn on upright, written with its
    /// EXIF, as a folder's photos are.
    public var isSinglePhoto = false
    /// The chroma subsampling of the JPEGs written, nil for the input's.
    public var subsampling: ChromaSubsampling?
    /// The ground speed in m/s where the poses give none (one photo, a fixed pose), for the
    /// navigation panel's time left.
    public var groundSpeed: Double?

    /// Creates a job.
    public init(
        input: String, timing: FootageTiming = FootageTiming(), poses: FootagePosePlan, map: MapData,
        camera: CameraGeometry, output: FootageDestination, sidecar: String? = nil,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.input = input
        self.timing = timing
        self.poses = poses
        self.map = map
        self.camera = camera
        self.output = output
        self.sidecar = sidecar
        self.workers = workers
    }

    /// Opens the footage and decides everything before the first frame is drawn: the clock, each
    /// frame's pose, the sample range, the output's rate; checks that the track meets the footage,
    /// that file names tell frames apart, that a calibration fits the frames and that the font
    /// opens; and creates the output.
    ///
    /// - Parameter messages: where what the user should know goes as it is found (the streams a
    ///   video output cannot copy, the track's warnings, where poses come from).
    /// - Throws: ``FootageJobError``; nothing is written then.
    public func prepare(messages: PipelineMessages) throws(FootageJobError) -> PreparedFootageJob {
        try PreparedFootageJob(job: self, messages: messages)
    }
}
