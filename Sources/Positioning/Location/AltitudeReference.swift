/// What an altitude was measured from, and how a height above sea level was put on the WGS84
/// ellipsoid (where poses and POIs are): for the note that says which datum each input used, and
/// to mark a height that could not be converted.
public enum AltitudeReference: Sendable, Hashable, CustomStringConvertible {
    /// Given on the ellipsoid (a GoPro's GPS5, gpsd's `altHAE`, `--position`).
    case ellipsoid
    /// Above sea level, with the receiver's own geoid separation (NMEA GGA, gpsd's `geoidSep`).
    case seaLevelReceiverSeparation
    /// Above sea level, with the separation the user gave (the CLI's `--geoid-separation`).
    case seaLevelGivenSeparation
    /// Above sea level, with the separation of a geoid model (`EGM96`, from PROJ's grid).
    case seaLevelGeoidModel(String)
    /// Above sea level, taken as on the ellipsoid: no separation was known (no geoid grid), so
    /// the height is off by it (-107 to +85 m).
    case seaLevelUncorrected

    /// Whether the height is off by the geoid separation.
    public var isApproximate: Bool { self == .seaLevelUncorrected }

    /// How the height was obtained, for a note: "above sea level + EGM96's geoid separation".
    public var description: String {
        switch self {
        case .ellipsoid: "on the WGS84 ellipsoid"
        case .seaLevelReceiverSeparation: "above sea level + the receiver's geoid separation"
        case .seaLevelGivenSeparation: "above sea level + the geoid separation given"
        case .seaLevelGeoidModel(let model): "above sea level + \(model)'s geoid separation"
        case .seaLevelUncorrected: "above sea level, taken as on the ellipsoid (no geoid separation known)"
        }
    }
}
