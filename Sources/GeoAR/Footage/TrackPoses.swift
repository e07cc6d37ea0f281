import ARCompositor
import CaptureKit
import Positioning

/// A recorded track's poses, the heading taken as the options choose: the one place where `sync`'s
/// report and footage annotation decide it, so that the report describes what annotation draws.
///
/// - ``LivePoseTracker/OrientationChoice/fixed(_:)``: that orientation throughout.
/// - ``LivePoseTracker/OrientationChoice/automatic``: the track's own headings when it has any
///   (NMEA HDT, a Karma drone's yaw), else as `.course`.
/// - ``LivePoseTracker/OrientationChoice/course``: the direction of travel, or a camera's own turns
///   anchored to north by it (GoPro's CORI; ARCompositor's `CourseOrientation`).
public struct TrackPoses: Sendable {
    /// The poses over time.
    public var timeline: PoseTimeline
    /// Where the orientation comes from, in words ("course over ground", "the track's 47 headings
    /// (flight-controller)"), with the mount when there is one.
    public var orientationDescription: String
    /// What the user should know about the course (a track too slow to give one), if anything.
    public var note: String?

    /// The poses of `track`, oriented as `orientation` says, the camera sitting on the body as
    /// `mount` says.
    public init(
        track: RecordedTrack, orientation: LivePoseTracker.OrientationChoice, mount: CameraMount,
        limits: InterpolationLimits, geoidSeparation: Double?
    ) {
        let input: OrientationInput
        var description: String
        var bodyMount = mount
        switch orientation {
        case .fixed(let fixed):
            input = .fixed(fixed, headingAccuracy: nil)
            description = "fixed \(fixed.heading)°, pitch \(fixed.pitch)°, roll \(fixed.roll)°"
        case .automatic where !track.orientations.isEmpty:
            input = .samples(track.orientations)
            description = "the track's \(track.orientations.count) headings (\(track.orientations[0].origin.rawValue))"
        case .course, .automatic:
            let course = CourseOrientation(track: track, mount: mount)
            input = course.input
            bodyMount = course.mount
            note = course.note
            description =
                course.followsTurns
                ? "the camera's own turns (CORI), anchored to north by the course over ground" : "course over ground"
            if orientation == .automatic { description += " (the track has no headings)" }
            if !track.attitudes.isEmpty { description += ", pitch and roll from the camera's gravity vector" }
        }
        timeline = PoseTimeline(
            positions: track.fixes, orientation: input, mount: bodyMount, limits: limits,
            assumedGeoidSeparation: geoidSeparation)
        orientationDescription = description + Self.describe(mount)
    }

    /// ", camera mounted at yaw 180°, pitch -10°", or nothing for a camera facing forward, level.
    public static func describe(_ mount: CameraMount) -> String {
        mount == CameraMount() ? "" : ", camera mounted at yaw \(mount.yaw)°, pitch \(mount.pitch)°"
    }
}
