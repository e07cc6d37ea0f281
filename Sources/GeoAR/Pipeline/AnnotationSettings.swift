import ARCompositor
import ArcaptureCore
import CaptureKit

/// What the annotator draws and how frames are encoded: read once, shared by every worker of a
/// pipeline (live or footage).
public struct AnnotationSettings: Sendable {
    /// The points of interest.
    public var pointsOfInterest: [PointOfInterest]
    /// The route to draw (the navigator follows it in frame order, before a frame is drawn).
    public var route: NavigationRoute?
    /// Colours, sizes, layers, the font and the layout's limits.
    public var style: OverlayStyleFile
    /// The banner along the bottom, if any.
    public var banner: BannerTemplate?
    /// A calibration file (ROS `camera_info` or OpenCV), scaled to each frame's size; nil to use
    /// ``horizontalFieldOfView``.
    public var cameraFile: String?
    /// The horizontal field of view in degrees, when there is no calibration file.
    public var horizontalFieldOfView: Double
    /// Whether each photo's EXIF lens data gives its field of view (see
    /// ``CameraGeometry/fieldOfViewFromPhotos``), in place of ``horizontalFieldOfView``.
    public var fieldOfViewFromPhotos = false
    /// How far above the ground the camera is, in metres (the ground carries the route and POIs
    /// without an altitude).
    public var heightAboveGround: Double
    /// JPEG quality for frames that are encoded.
    public var quality: Int
    /// MCU rows per restart interval in the JPEGs encoded (a restart marker after each; 0 for
    /// none): such frames can be spliced when annotated again, by arcapture or another tool.
    public var restartRows = 1
    /// Whether baseline JPEG frames are spliced (only the MCUs the overlay touches are re-encoded,
    /// with the frame's own tables, at its own quality) rather than decoded and encoded whole at
    /// ``quality``.
    public var splices = true
    /// What the frames become: JPEGs, or planes for a Y4M stream.
    public var destination: FootageDestination
    /// Labels, markers and panels composed by any worker, for all of them.
    public let sprites = SpriteCache()
    /// Whether each frame's sidecar record is filled in (with a sidecar; without one, the time
    /// is not formatted and the POIs drawn are not listed, frame after frame).
    public var keepsRecords = false
    /// The input's sample range (Y4M from video is usually limited; JPEG is full).
    public var inputRange = SampleRange.full
    /// A plan view inset at the top right of each frame, or nil for none.
    public var minimap: MapRenderer.Options?
    /// Whether the plan view is drawn over each whole frame instead of the overlay (a map view),
    /// with ``minimap``'s options when given.
    public var mapOnly = false
    /// The part of each frame the plan view covers, with ``mapOnly``.
    public var mapFrame = ViewFrame.full
    /// Whether the navigator follows the route (the panel, remaining distance and time) rather
    /// than the route being drawn on the ground only. A pipeline told of map data that changes
    /// follows a new route from its start when this is true.
    public var followsRoute = true
    /// Whether each drawn frame's marker nearest the centre is found, for a footage pipeline's
    /// `centreObserver` (a view's select-centre).
    public var selectsCenter = false
    /// The chroma subsampling JPEGs are encoded with, nil for the input's (frames are then encoded
    /// whole, never spliced).
    public var subsampling: ChromaSubsampling?
    /// The ground speed in m/s for frames whose speed the poses do not give (one photo, a fixed
    /// pose), for the navigation panel's time left; nil for none.
    public var groundSpeed: Double?

    /// Creates settings.
    public init(
        pointsOfInterest: [PointOfInterest], route: NavigationRoute?, style: OverlayStyleFile,
        banner: BannerTemplate?, cameraFile: String?, horizontalFieldOfView: Double, heightAboveGround: Double,
        quality: Int, destination: FootageDestination, keepsRecords: Bool = false, inputRange: SampleRange = .full,
        minimap: MapRenderer.Options? = nil
    ) {
        self.minimap = minimap
        self.pointsOfInterest = pointsOfInterest
        self.route = route
        self.style = style
        self.banner = banner
        self.cameraFile = cameraFile
        self.horizontalFieldOfView = horizontalFieldOfView
        self.heightAboveGround = heightAboveGround
        self.quality = quality
        self.destination = destination
        self.keepsRecords = keepsRecords
        self.inputRange = inputRange
    }

    /// The range frames are drawn in: limited frames stay limited on their way to Y4M, and are
    /// stretched to full range first on their way to JPEG (which is full range by definition).
    public var drawingRange: SampleRange { destination.wantsPlanes ? inputRange : .full }
}
