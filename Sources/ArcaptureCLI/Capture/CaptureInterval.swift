import Foundation

/// Parses intervals and durations as people write them: `2s`, `500ms`, `1.5m`, `1h`, or a number
/// of seconds.
enum CaptureInterval {
    static func seconds(_ text: String) -> Double? {
        let lower = text.lowercased().trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where lower.hasSuffix(suffix) {
            guard let value = Double(lower.dropLast(suffix.count)), value.isFinite, value > 0 else { return nil }
            return value * scale
        }
        guard let value = Double(lower), value.isFinite, value > 0 else { return nil }
        return value
    }
}
