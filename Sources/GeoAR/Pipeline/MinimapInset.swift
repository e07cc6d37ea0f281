import ARCompositor
import ArcaptureCore
import CaptureKit

/// Where the minimap goes in an AR frame and how it is drawn there, for live and footage alike:
/// a square of 9/25 of the frame's smaller side, a margin in from the top right (the navigation
/// panel is top left, the banner at the bottom).
enum MinimapInset {
    /// The inset's rectangle in a `width`×`height` frame.
    static func rect(width: Int, height: Int) -> MapRect {
        let side = min(width, height) * 9 / 25
        let margin = max(4, height / 36)
        return MapRect(x: width - side - margin, y: margin, width: side, height: side)
    }

    /// Draws the plan view around `pose` into the inset of `image`.
    static func draw(
        _ renderer: MapRenderer, on image: inout YCbCrImage, pose: DevicePose, pointsOfInterest: [PointOfInterest],
        selected: Set<String>, route: NavigationRoute?, track: [SIMD2<Double>]
    ) {
        renderer.draw(
            into: &image, rect: rect(width: image.width, height: image.height), latitude: pose.latitude,
            longitude: pose.longitude, heading: pose.orientation.heading, pointsOfInterest: pointsOfInterest,
            selected: selected, route: route, track: track)
    }
}
