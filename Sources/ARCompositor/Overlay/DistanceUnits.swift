import Foundation

/// How distances read on labels: `42 m`, `850 m`, `1.2 km`, `12 km`; or `90 ft`, `900 ft`,
/// `1.2 mi`, `12 mi`. Precision falls with distance, as the position's own error does.
public enum DistanceUnits: String, Hashable, Sendable, Codable {
    /// Metres and kilometres.
    case metric
    /// Feet and miles.
    case imperial

    /// `distance` metres as a short label.
    public func format(_ distance: Double) -> String {
        let (small, smallUnit, large, largeUnit) =
            self == .metric
            ? (distance, "m", distance / 1000, "km") : (distance / 0.3048, "ft", distance / 1609.344, "mi")
        if small < 100 { return "\(max(1, Int(small.rounded()))) \(smallUnit)" }
        if small < 1000 && (self == .metric || large < 0.2) {
            return "\(Int((small / 10).rounded()) * 10) \(smallUnit)"
        }
        guard large < 10 else { return "\(Int(large.rounded())) \(largeUnit)" }
        // One decimal by integer arithmetic: short strings like "1.2 km" then stay inline (no
        // heap allocation per label per frame, as String(format:) would make).
        let tenths = Int((large * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(largeUnit)"
    }
}
