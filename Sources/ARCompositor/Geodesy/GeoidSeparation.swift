/// Converts between altitude above mean sea level, which GPS receivers (NMEA, gpsd) report, and
/// altitude above the WGS84 ellipsoid, which the geometry uses.
///
/// Receivers report both the MSL altitude and the geoid separation N at their position (NMEA GGA
/// field 11); the ellipsoidal altitude is h = MSL + N. Convert once, where the data comes in.
public enum GeoidSeparation {
    /// h = MSL altitude + geoid separation.
    public static func ellipsoidalAltitude(meanSeaLevel: Double, separation: Double) -> Double {
        meanSeaLevel + separation
    }

    /// MSL altitude = h − geoid separation.
    public static func meanSeaLevelAltitude(ellipsoidal: Double, separation: Double) -> Double {
        ellipsoidal - separation
    }
}
