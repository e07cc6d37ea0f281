/// The WGS84 ellipsoid, the datum of every position arcapture handles (GPS, GeoJSON, GPX).
///
/// The values are the defining constants from the geometry contract (docs in the repository's
/// shared geometry spec, §1): projection of points of interest into the frame is built on them.
public enum WGS84 {
    /// The semi-major axis `a`, in metres.
    public static let semiMajorAxis = 6_378_137.0
    /// The flattening `f`.
    public static let flattening = 1 / 298.257_223_563
    /// The first eccentricity squared, `e² = f(2 − f)`.
    public static let eccentricitySquared = flattening * (2 - flattening)
    /// The semi-minor axis `b = a(1 − f)`, in metres.
    public static let semiMinorAxis = semiMajorAxis * (1 - flattening)
}
