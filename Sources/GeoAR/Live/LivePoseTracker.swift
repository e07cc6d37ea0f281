import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation
import Positioning

/// Poses for live frames, each looked up at the frame's capture time from the fixes and
/// orientations received so far: the live counterpart of a track's `PoseTimeline`, never "the
/// latest fix".
///
/// Samples are placed on the frames' clock by **when they arrived** (CLOCK_MONOTONIC at receipt,
/// less ``Options/receiverLatency``), not by their own UTC time: a board without a real-time clock
/// may not know the date, and a replayed log carries old times. A sample's own time is kept for what
/// people read: ``LivePose/receiverTime`` is the receiver's clock at the frame.
///
/// A frame between two fixes is interpolated; a frame newer than the newest fix is extrapolated up
/// to the limits' `InterpolationLimits/maximumExtrapolation` (so a 1 Hz receiver draws every frame
/// of a 30 fps camera); beyond that it has no pose, and says why.
///
/// This type is thread-safe: sources deliver on their threads, frames look up on the writer's.
public final class LivePoseTracker: Sendable {
    /// Where the camera's heading comes from.
    public enum OrientationChoice: Sendable, Equatable {
        /// Measured headings when a source sends any (gpsd's ATT, NMEA HDT, an IMU), else the
        /// direction of travel.
        case automatic
        /// A fixed heading, pitch and roll (a camera on a mast).
        case fixed(DeviceOrientation)
        /// The direction of travel, whatever else arrives.
        case course
    }

    /// How poses are made.
    public struct Options: Sendable {
        /// Where the heading comes from.
        public var orientation: OrientationChoice
        /// How the camera sits on the body whose orientation is measured.
        public var mount: CameraMount
        /// How far to interpolate and extrapolate.
        public var limits: InterpolationLimits
        /// The time from a receiver's measurement to its arrival here (a serial GPS at 9600 baud is
        /// about 0.1 s behind; gpsd adds a little): subtracted from each sample's arrival time.
        public var receiverLatency: Duration
        /// Added to mean-sea-level altitudes that come without a geoid separation.
        public var geoidSeparation: Double?

        /// Creates options.
        public init(
            orientation: OrientationChoice = .automatic, mount: CameraMount = CameraMount(),
            limits: InterpolationLimits = InterpolationLimits(), receiverLatency: Duration = .zero,
            geoidSeparation: Double? = nil
        ) {
            self.orientation = orientation
            self.mount = mount
            self.limits = limits
            self.receiverLatency = receiverLatency
            self.geoidSeparation = geoidSeparation
        }
    }

    /// A frame's pose and what it came from.
    public struct LivePose: Sendable, Equatable {
        /// The pose, its accuracy and how far it was extrapolated.
        public var estimate: PoseEstimate
        /// The newest fix at or before the frame (else the first after it).
        public var fix: LocationFix
        /// The receiver's clock at the frame: the fix's own time moved by the frame's distance from
        /// the fix's arrival. What the banner and the sidecar show.
        public var receiverTime: Date
        /// Ground speed in m/s: the fix's, when it reports one.
        public var speed: Double?
    }

    private struct Arrival {
        var at: Date
        var fix: LocationFix
    }

    private struct State {
        var arrivals: [Arrival] = []
        var measured: [OrientationSample] = []
        var course: [OrientationSample] = []
        var courseEstimator = CourseHeadingEstimator()
        /// A fixed position (a camera on a mast): it holds at every frame's time.
        var fixed: Arrival?
        /// The declination last taken for magnetic headings, and the place (to 0.1°) and day it
        /// is for: it changes by hundredths of a degree over kilometres and days.
        var declination: (key: SIMD3<Int>, value: Result<MagneticDeclination, MagneticDeclination.Unavailable>)?
        /// Magnetic headings not used: no position yet, or no model for the fix's date.
        var magneticUnused = 0
    }

    /// The options.
    public let options: Options
    private let state = Locked(State())
    /// Samples older than this, before the newest, are let go: memory stays bounded on a long run.
    private static let window: TimeInterval = 120

    /// Creates a tracker with no samples.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Feeds the tracker from a location or pose source; cancel the observation to stop.
    public func observe(_ source: any EventSource) -> LocationObservation {
        if let fixed = source as? FixedLocationSource, let fix = fixed.latestFix {
            let at = arrival(fix.receivedMonotonicNanoseconds)
            state.withLock { $0.fixed = Arrival(at: at, fix: fix) }
            return source.addObserver { _ in }
        }
        // A new location source replaces a fixed position; a pose source (an IMU) adds to it.
        if source is any LocationSource { state.withLock { $0.fixed = nil } }
        return source.addObserver { [self] event in receive(event) }
    }

    /// Takes one event: fixes and orientations are kept, placed by their arrival.
    public func receive(_ event: LocationEvent) {
        switch event {
        case .fix(let fix):
            let at = arrival(fix.receivedMonotonicNanoseconds)
            state.withLock { state in
                // A fix sent again with more fields (gpsd's TPVs of one epoch) replaces the earlier
                // one and keeps its arrival.
                if let last = state.arrivals.last, last.fix.time == fix.time {
                    state.arrivals[state.arrivals.count - 1].fix = fix
                } else {
                    state.arrivals.append(Arrival(at: at, fix: fix))
                }
                var moved = fix
                moved.time = state.arrivals[state.arrivals.count - 1].at
                if let heading = state.courseEstimator.update(with: moved) {
                    state.course.removeAll { $0.time == heading.time }
                    state.course.append(heading)
                }
                Self.trim(&state, newest: at)
            }
        case .orientation(let sample):
            var moved = sample
            moved.time = arrival(sample.receivedMonotonicNanoseconds)
            state.withLock { state in
                if moved.headingIsMagnetic {
                    // An IMU's magnetic heading made true where the camera is now; without a
                    // position (no pose yet anyway) or a model, it is not used, and counted.
                    guard let declination = Self.declination(&state) else {
                        state.magneticUnused += 1
                        return
                    }
                    moved.heading = declination.trueHeading(fromMagnetic: moved.heading)
                    moved.headingIsMagnetic = false
                }
                state.measured.append(moved)
                Self.trim(&state, newest: moved.time)
            }
        case .status, .warning:
            break
        }
    }

    /// The declination magnetic headings (an IMU's) are made true with, at the newest fix: nil
    /// before one, or why there is none (the fix's date outside every built-in model).
    public var declination: Result<MagneticDeclination, MagneticDeclination.Unavailable>? {
        state.withLock { $0.declination?.value }
    }

    /// Magnetic headings not used for want of a position or a model.
    public var magneticHeadingsUnused: Int { state.withLock { $0.magneticUnused } }

    /// The declination at the newest fix, by its UTC time, cached per 0.1° and day.
    private static func declination(_ state: inout State) -> MagneticDeclination? {
        guard let fix = state.fixed?.fix ?? state.arrivals.last?.fix else { return nil }
        let key = SIMD3(
            Int((fix.coordinate.latitude * 10).rounded()), Int((fix.coordinate.longitude * 10).rounded()),
            Int((fix.time.timeIntervalSince1970 / 86_400).rounded(.down)))
        if state.declination?.key != key {
            let value = Result { () throws(MagneticDeclination.Unavailable) in
                try MagneticDeclination.at(
                    latitude: fix.coordinate.latitude, longitude: fix.coordinate.longitude,
                    heightMetres: fix.coordinate.altitude ?? 0, time: fix.time)
            }
            state.declination = (key, value)
        }
        return try? state.declination?.value.get()
    }

    /// The newest fix received.
    public var latestFix: LocationFix? { state.withLock { $0.fixed?.fix ?? $0.arrivals.last?.fix } }

    /// The pose at a frame's timestamp (CLOCK_MONOTONIC nanoseconds), or why there is none.
    public func pose(atMonotonicNanoseconds nanoseconds: Int64) -> Result<LivePose, NoPoseReason> {
        let time = Self.date(nanoseconds)
        let (arrivals, fixed, orientation) = state.withLock { state -> ([Arrival], Arrival?, OrientationInput) in
            let input: OrientationInput
            switch options.orientation {
            case .fixed(let fixed): input = .fixed(fixed, headingAccuracy: nil)
            case .course: input = .samples(state.course)
            case .automatic: input = .samples(state.measured.isEmpty ? state.course : state.measured)
            }
            return (state.arrivals, state.fixed, input)
        }
        // A fixed position is where the camera is at any time.
        let positions = (fixed.map { [Arrival(at: time, fix: $0.fix)] } ?? arrivals).map { arrival -> LocationFix in
            var fix = arrival.fix
            fix.time = arrival.at
            return fix
        }
        let timeline = PoseTimeline(
            positions: positions, orientation: orientation, mount: options.mount, limits: options.limits,
            assumedGeoidSeparation: options.geoidSeparation)
        switch timeline.pose(at: time) {
        case .noPose(let reason):
            return .failure(reason)
        case .pose(let estimate):
            guard let nearest = fixed ?? arrivals.last(where: { $0.at <= time }) ?? arrivals.first else {
                return .failure(.noPositions)
            }
            return .success(
                LivePose(
                    estimate: estimate, fix: nearest.fix,
                    receiverTime: nearest.fix.time.addingTimeInterval(time.timeIntervalSince(nearest.at)),
                    speed: nearest.fix.speed))
        }
    }

    /// Where a sample goes on the frames' clock: its receipt (now, if the source did not say), less
    /// the receiver's latency.
    private func arrival(_ received: Int64?) -> Date {
        Self.date(received ?? MonotonicClock.nanoseconds()).addingTimeInterval(-options.receiverLatency.seconds)
    }

    /// CLOCK_MONOTONIC nanoseconds as a `Date` (seconds since boot, not a calendar time: only
    /// differences mean anything, which is all interpolation needs).
    static func date(_ nanoseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(nanoseconds) / 1e9)
    }

    private static func trim(_ state: inout State, newest: Date) {
        let cutoff = newest.addingTimeInterval(-window)
        if let keep = state.arrivals.firstIndex(where: { $0.at >= cutoff }), keep > 1 {
            state.arrivals.removeFirst(keep - 1)
        }
        if let keep = state.measured.firstIndex(where: { $0.time >= cutoff }), keep > 1 {
            state.measured.removeFirst(keep - 1)
        }
        if let keep = state.course.firstIndex(where: { $0.time >= cutoff }), keep > 1 {
            state.course.removeFirst(keep - 1)
        }
    }
}
