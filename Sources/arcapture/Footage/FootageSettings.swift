import ARCompositor
import CaptureKit

/// What every worker needs, read once.
struct FootageSettings: Sendable {
    var pointsOfInterest: [PointOfInterest]
    var route: NavigationRoute?
    var style: OverlayStyleFile
    var banner: BannerTemplate?
    var cameraFile: String?
    var horizontalFieldOfView: Double
    var heightAboveGround: Double
    var quality: Int
    var destination: FootageDestination
    /// Labels, markers and panels composed by any worker, for all of them.
    let sprites = SpriteCache()
    /// Whether each frame's sidecar record is filled in (with `--sidecar`; without one, the time
    /// is not formatted and the POIs drawn are not listed, frame after frame).
    var keepsRecords = false
    /// The input's sample range (Y4M from video is usually limited; JPEG is full).
    var inputRange = SampleRange.full

    /// The range frames are drawn in: limited frames stay limited on their way to Y4M, and are
    /// stretched to full range first on their way to JPEG (which is full range by definition).
    var drawingRange: SampleRange { destination.wantsPlanes ? inputRange : .full }
}
