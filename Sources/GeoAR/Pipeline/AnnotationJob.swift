import ARCompositor
import CaptureKit
import Footage
import Foundation

/// One frame on its way to a worker: what was read, its time, and what the producer worked out in
/// frame order (the pose, and where the traveller is on the route), so that workers, whichever
/// frame they get, draw the same thing.
struct AnnotationJob: Sendable {
    var frame: FootageFrame
    /// Nil for a photo without an EXIF time (and no track to time it by).
    var time: Date?
    /// Seconds east of UTC in which the footage stated its time (the banner shows it so); nil:
    /// `TZ`'s zone.
    var utcOffset: Int? = nil
    var pose: DevicePose?
    var navigation: NavigationInfo?
    var speed: Double?
    /// The heading's error in degrees, when the pose source gives it (a pose sidecar's
    /// `heading_accuracy`): markers fade by it.
    var headingAccuracy: Double?
    /// The POIs selected for this frame beyond the style's (a view's selection), or nil to draw the
    /// style's selection alone.
    var selected: Set<String>? = nil
    /// Recent positions (latitude, longitude), oldest first, for the minimap's trail.
    var track: [SIMD2<Double>] = []
    /// A session's map data as it stood when this frame was read, drawn in place of the
    /// settings'; nil to draw the settings'.
    var map: MapDataSnapshot? = nil
}
