/// How good a position fix is, as receivers and gpsd report it (gpsd's TPV `mode`, NMEA GSA's
/// mode field).
public enum FixMode: Int, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The receiver reports no position.
    case noFix = 1
    /// Latitude and longitude only; the altitude is missing or not trustworthy.
    case twoD = 2
    /// Latitude, longitude and altitude.
    case threeD = 3

    /// `no fix`, `2D`, `3D`.
    public var description: String {
        switch self {
        case .noFix: "no fix"
        case .twoD: "2D"
        case .threeD: "3D"
        }
    }

    /// Orders by quality: no fix < 2D < 3D.
    public static func < (lhs: FixMode, rhs: FixMode) -> Bool { lhs.rawValue < rhs.rawValue }
}
