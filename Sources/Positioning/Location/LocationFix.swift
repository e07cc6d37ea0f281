import Foundation

/// One position fix: where the receiver was at a UTC time, how sure it is, and how it moved.
///
/// Altitudes follow the geometry spec: ``coordinate``'s altitude is above the WGS84 ellipsoid and is
/// set only when it is known as such (gpsd's `altHAE`, or NMEA GGA's MSL altitude plus its geoid
/// separation). A source that knows only the altitude above mean sea level (a GPX `<ele>`, a GGA
/// without separation) leaves the ellipsoidal altitude nil and reports ``altitudeMeanSeaLevel``.
public struct LocationFix: Hashable, Sendable {
    /// The receiver's UTC time of the fix (the measurement epoch, not when it arrived here).
    public var time: Date
    /// When this process received the fix, on CLOCK_MONOTONIC in nanoseconds (the clock V4L2 frame
    /// timestamps use); nil for fixes read from files.
    public var receivedMonotonicNanoseconds: Int64?
    /// Latitude, longitude and, when known, ellipsoidal altitude.
    public var coordinate: GeodeticCoordinate
    /// Metres above mean sea level, when the source reports it.
    public var altitudeMeanSeaLevel: Double?
    /// Metres from the ellipsoid up to the geoid here (NMEA GGA field 11), when reported.
    public var geoidSeparation: Double?
    /// Horizontal position error in metres (one standard deviation of the radial error), when known.
    public var horizontalAccuracy: Double?
    /// Vertical position error in metres (one standard deviation), when known.
    public var verticalAccuracy: Double?
    /// Course over ground in degrees clockwise from true north, when moving and reported.
    public var course: Double?
    /// Speed over ground in metres per second, when reported.
    public var speed: Double?
    /// 2D or 3D.
    public var mode: FixMode

    /// Creates a fix.
    public init(
        time: Date, coordinate: GeodeticCoordinate, mode: FixMode, receivedMonotonicNanoseconds: Int64? = nil,
        altitudeMeanSeaLevel: Double? = nil, geoidSeparation: Double? = nil, horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil, course: Double? = nil, speed: Double? = nil
    ) {
        self.time = time
        self.coordinate = coordinate
        self.mode = mode
        self.receivedMonotonicNanoseconds = receivedMonotonicNanoseconds
        self.altitudeMeanSeaLevel = altitudeMeanSeaLevel
        self.geoidSeparation = geoidSeparation
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.course = course
        self.speed = speed
    }

    /// The altitude to place the camera at, on the ellipsoid, and how it was obtained: the
    /// ellipsoidal altitude when known; otherwise the altitude above sea level plus, in this order,
    /// the fix's own geoid separation, `assumedGeoidSeparation` (a user's `--geoid-separation`), or
    /// the geoid model's at the fix (EGM96, ``GeoidGrid/shared``); with none of them, the altitude
    /// above sea level as it is (``AltitudeReference/seaLevelUncorrected``). Nil without an altitude.
    public func ellipsoidalAltitude(assumingGeoidSeparation assumedGeoidSeparation: Double? = nil) -> (
        altitude: Double, reference: AltitudeReference
    )? {
        if let altitude = coordinate.altitude { return (altitude, .ellipsoid) }
        guard let seaLevel = altitudeMeanSeaLevel else { return nil }
        if let geoidSeparation { return (seaLevel + geoidSeparation, .seaLevelReceiverSeparation) }
        return Self.ellipsoidal(
            seaLevel: seaLevel, latitude: coordinate.latitude, longitude: coordinate.longitude,
            assumingGeoidSeparation: assumedGeoidSeparation)
    }

    /// A height above sea level at a place put on the ellipsoid: plus `assumedGeoidSeparation`
    /// when given, else the geoid model's separation there, else as it is (uncorrected).
    public static func ellipsoidal(
        seaLevel: Double, latitude: Double, longitude: Double, assumingGeoidSeparation assumedGeoidSeparation: Double?
    ) -> (altitude: Double, reference: AltitudeReference) {
        if let assumedGeoidSeparation { return (seaLevel + assumedGeoidSeparation, .seaLevelGivenSeparation) }
        if case .success(let grid) = GeoidGrid.shared {
            return (
                seaLevel + grid.separation(latitude: latitude, longitude: longitude), .seaLevelGeoidModel(grid.model)
            )
        }
        return (seaLevel, .seaLevelUncorrected)
    }
}
