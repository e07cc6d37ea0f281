import Positioning

/// The orientation a recorded track gives a camera that cannot tell north: the heading from the
/// direction of travel, and, when the camera measured gravity itself (a GoPro's GRAV), its own
/// pitch and roll at each of those headings' times; when it also recorded its own turns (CORI),
/// the heading follows them between fixes, anchored to north by the course
/// (Positioning's `CameraTurnHeading`), at every attitude's time.
///
/// A camera that measures its attitude needs no mount pitch or roll: its gravity vector already
/// says how it sits. Only the mount's yaw (a camera facing backwards) still applies, to the
/// heading; the timeline then composes nothing more.
public struct CourseOrientation: Sendable {
    /// The samples for a ``PoseTimeline``.
    public var input: OrientationInput
    /// The mount the timeline composes them with.
    public var mount: CameraMount
    /// What was left out and why, for a warning; nil when nothing was.
    public var note: String?
    /// Whether the heading follows the camera's own turns between fixes (its CORI, anchored by
    /// the course), rather than the course alone.
    public var followsTurns = false

    /// The course's headings for `track`, with its attitudes when it has any, and the mount the
    /// timeline should use with them.
    public init(track: RecordedTrack, mount: CameraMount) {
        guard !track.attitudes.isEmpty else {
            input = .samples(CourseHeadingEstimator.samples(for: track.fixes))
            self.mount = mount
            note = nil
            return
        }
        if let turns = CameraTurnHeading.samples(attitudes: track.attitudes, fixes: track.fixes, mountYaw: mount.yaw) {
            // The camera's own turns between fixes (CORI), anchored to north by the course.
            input = .samples(turns)
            followsTurns = true
        } else {
            // The course (estimated here only when the turns are not used: they estimate it themselves).
            let turned = CourseHeadingEstimator.samples(for: track.fixes).map { sample in
                var sample = sample
                sample.heading = CompassDegrees.wrapped(sample.heading + mount.yaw)
                return sample
            }
            input = .samples(CameraAttitude.applying(track.attitudes, to: turned))
        }
        self.mount = CameraMount()
        note =
            mount.pitch != 0 || mount.roll != 0
            ? "\(track.file) gives the camera's own pitch and roll (its gravity vector): the mount's pitch and roll are not added"
            : nil
    }
}
