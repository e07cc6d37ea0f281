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
}
