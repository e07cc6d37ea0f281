import Foundation

/// Where a camera or receiver pointed at a time: heading, and pitch and roll when the source measures
/// them, in the geometry spec's convention (heading clockwise from true north, pitch up, roll
/// clockwise seen from behind), with the heading's accuracy.
public struct OrientationSample: Hashable, Sendable {
    /// What measured an orientation.
    public enum Origin: String, Hashable, Sendable {
        /// A heading given by the user (a fixed mount).
        case fixed
        /// The direction of travel (course over ground).
        case course
        /// A camera's own turns since the recording began (GoPro's CORI), anchored to north by
        /// the direction of travel (``CameraTurnHeading``).
        case cameraTurns = "camera-turns"
        /// A true heading sentence: NMEA HDT or THS (dual-antenna receivers, gyrocompasses).
        case trueHeading = "true-heading"
        /// A magnetic compass (NMEA HDG, HDM) corrected by the variation it reports, else by the
        /// World Magnetic Model's declination where the receiver is.
        case compass
        /// gpsd's ATT message.
        case gpsdAttitude = "gpsd-att"
        /// NMEA `$PASHR` (heading, roll and pitch from an inertial unit).
        case inertial
        /// A per-frame sidecar file.
        case sidecar
        /// An IMU read through Linux IIO.
        case imu
        /// A drone's flight controller (the GoPro Karma's ATTD): the airframe's yaw, which the
        /// camera's gimbal follows; the camera's pitch and roll are the gimbal's, not recorded.
        case flightController = "flight-controller"
        /// A camera gimbal's yaw, pitch and roll (a DJI drone's `gb_yaw`, `G.PRY`): the camera's
        /// own orientation.
        case gimbal
        /// A heading column of a track file (CSV), taken as from true north.
        case trackFile = "track-file"
    }

    /// The UTC time of the measurement.
    public var time: Date
    /// When this process received it, on CLOCK_MONOTONIC in nanoseconds; nil for recorded samples.
    public var receivedMonotonicNanoseconds: Int64?
    /// Degrees clockwise from true north (from magnetic north while ``headingIsMagnetic``).
    public var heading: Double
    /// Degrees above the horizon, when measured.
    public var pitch: Double?
    /// Degrees clockwise about the forward axis seen from behind, when measured.
    public var roll: Double?
    /// The heading's error in degrees (one standard deviation), when known.
    public var headingAccuracy: Double?
    /// What measured it.
    public var origin: Origin
    /// Whether ``heading`` is from magnetic north still: a magnetometer whose declination was left
    /// to the World Magnetic Model where the camera is. Whoever knows the position makes it true
    /// (`LivePoseTracker` in GeoAR) before it is used.
    public var headingIsMagnetic: Bool

    /// Creates a sample.
    public init(
        time: Date, heading: Double, pitch: Double? = nil, roll: Double? = nil, headingAccuracy: Double? = nil,
        origin: Origin, receivedMonotonicNanoseconds: Int64? = nil, headingIsMagnetic: Bool = false
    ) {
        self.headingIsMagnetic = headingIsMagnetic
        self.time = time
        self.heading = heading
        self.pitch = pitch
        self.roll = roll
        self.headingAccuracy = headingAccuracy
        self.origin = origin
        self.receivedMonotonicNanoseconds = receivedMonotonicNanoseconds
    }
}
