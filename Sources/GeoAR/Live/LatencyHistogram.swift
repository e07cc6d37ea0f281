/// Capture-to-written latencies of a live capture, in whole milliseconds up to 10 s (longer ones
/// count as 10 s), for the median and the 99th percentile: a fixed 80 kB however long the run,
/// where keeping every figure of a day at 30 fps would take 20 MB.
struct LatencyHistogram: Sendable {
    private static let limit = 10_000
    private var counts = [Int](repeating: 0, count: LatencyHistogram.limit + 1)
    private(set) var total = 0

    /// Counts one latency.
    mutating func add(milliseconds: Double) {
        let bucket = min(Self.limit, max(0, Int(milliseconds.rounded())))
        counts[bucket] += 1
        total += 1
    }

    /// The latency at or below which `fraction` (0–1) of them lie, in milliseconds; nil before any.
    func percentile(_ fraction: Double) -> Int? {
        guard total > 0 else { return nil }
        let target = max(1, Int((Double(total) * fraction).rounded(.up)))
        var seen = 0
        for (milliseconds, count) in counts.enumerated() {
            seen += count
            if seen >= target { return milliseconds }
        }
        return Self.limit
    }
}
