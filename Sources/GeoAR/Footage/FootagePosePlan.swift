import ARCompositor
import ArcaptureCore
import CaptureKit
import Positioning

/// Where each footage frame's pose comes from: positions (the footage's own, a track, one fixed
/// place), the orientation, how the camera sits on what carries it, and how far poses are
/// interpolated. Part of a ``FootageJob``; `sync`'s report reads the same plan.
public struct FootagePosePlan: Sendable {
    /// Where positions come from.
    public enum Positions: Sendable {
        /// The footage's own: a video's telemetry (GoPro's GPMF, a Karma drone's), each photo's
        /// EXIF geotag in a folder of photos.
        case footage
        /// A recorded track (GPX, NMEA, a video's telemetry), looked up at each frame's time.
        case track(RecordedTrack)
        /// One place for every frame (a camera on a mast), its altitude above the WGS84 ellipsoid.
        case fixed(GeodeticCoordinate)

        /// Whether positions come from a separate track.
        public var isTrack: Bool {
            if case .track = self { return true }
            return false
        }

        /// Whether positions are the footage's own.
        public var isFootage: Bool {
            if case .footage = self { return true }
            return false
        }
    }

    /// Where the orientation comes from.
    public enum Orientation: Sendable, Equatable {
        /// The track's own headings when it has any, else the direction of travel.
        case automatic
        /// The direction of travel (or a camera's own turns anchored to north by it).
        case course
        /// One heading, pitch and roll throughout.
        case fixed(DeviceOrientation)
        /// Heading, pitch and roll per time from a sidecar file (CSV or JSON lines).
        case sidecar(path: String)
    }

    /// Where positions come from.
    public var positions: Positions
    /// Where the orientation comes from.
    public var orientation: Orientation
    /// How the camera sits on the body whose orientation is measured.
    public var mount: CameraMount
    /// How far poses are interpolated and extrapolated.
    public var limits: InterpolationLimits
    /// Added to mean-sea-level altitudes that come without a geoid separation (GPX elevations,
    /// EXIF altitudes).
    public var geoidSeparation: Double?

    /// Creates a plan.
    public init(
        positions: Positions, orientation: Orientation = .automatic, mount: CameraMount = CameraMount(),
        limits: InterpolationLimits = InterpolationLimits(), geoidSeparation: Double? = nil
    ) {
        self.positions = positions
        self.orientation = orientation
        self.mount = mount
        self.limits = limits
        self.geoidSeparation = geoidSeparation
    }

    /// The poses along `track` as this plan orients them, a phrase saying where the orientation
    /// comes from, and what the user should know (a sidecar's skipped lines, a course too slow to
    /// give a heading).
    ///
    /// - Throws: `InputFileError` from the sidecar file.
    public func timeline(for track: RecordedTrack) throws(InputFileError) -> (
        timeline: PoseTimeline, orientation: String, warnings: [String]
    ) {
        let choice: LivePoseTracker.OrientationChoice
        switch orientation {
        case .fixed(let fixed): choice = .fixed(fixed)
        case .course: choice = .course
        case .automatic: choice = .automatic
        case .sidecar(let path):
            let sidecar = try SidecarFile(contentsOf: path)
            let timeline = PoseTimeline(
                positions: track.fixes, orientation: .samples(sidecar.samples), mount: mount, limits: limits,
                assumedGeoidSeparation: geoidSeparation)
            return (
                timeline, "\(sidecar.samples.count) samples from \(path)" + TrackPoses.describe(mount),
                sidecar.warnings
            )
        }
        let poses = TrackPoses(
            track: track, orientation: choice, mount: mount, limits: limits, geoidSeparation: geoidSeparation)
        return (poses.timeline, poses.orientationDescription, poses.note.map { [$0] } ?? [])
    }
}
