import Foundation

/// Footage's own positions against a track's, flattened onto one plane and one time axis: how far
/// apart the two are when the footage's clock is moved by an offset. ``TrackOffsetEstimate`` finds
/// the offset where they are closest.
struct TrackMatcher: Sendable {
    /// The distance a footage position counts as at most (and counts as when the track has none at
    /// its time): a few outliers (a multipath jump, a tunnel) cannot outweigh the rest, and a
    /// footage position beyond the track's time weighs as much as one that matches nothing.
    static let cap = 100.0

    /// The footage's positions, timed from its first.
    let footage: [PlanarSample]
    /// The track's positions, on the same plane and time axis.
    let track: [PlanarSample]
    /// The longest time between two track fixes that is still interpolated across.
    let maximumGap: Double

    init(footage fixes: [LocationFix], track trackFixes: [LocationFix], maximumGap: Double) {
        let origin = fixes.first.map { ($0.coordinate.latitude, $0.coordinate.longitude) } ?? (0, 0)
        let epoch = fixes.first?.time ?? Date(timeIntervalSince1970: 0)
        footage = fixes.map { PlanarSample($0, origin: origin, epoch: epoch) }
        track = trackFixes.map { PlanarSample($0, origin: origin, epoch: epoch) }
        self.maximumGap = maximumGap
    }

    /// The track's position at `time` (linear between the fixes around it), nil before or after
    /// the track or inside a gap longer than ``maximumGap``. `cursor` is where the last lookup
    /// ended: a lookup near it (the next offset of a scan) walks a few fixes instead of searching.
    func trackPosition(at time: Double, cursor: inout Int) -> PlanarSample? {
        guard track.count >= 2, let first = track.first, let last = track.last, time >= first.time,
            time <= last.time
        else { return nil }
        cursor = min(max(cursor, 0), track.count - 2)
        var steps = 0
        while track[cursor + 1].time < time, steps < 8 {
            cursor += 1
            steps += 1
        }
        while track[cursor].time > time, steps < 8 {
            cursor -= 1
            steps += 1
        }
        if track[cursor].time > time || track[cursor + 1].time < time {
            // Far from the last lookup: search.
            var low = 0
            var high = track.count - 1
            while high - low > 1 {
                let middle = (low + high) / 2
                if track[middle].time <= time { low = middle } else { high = middle }
            }
            cursor = low
        }
        let a = track[cursor]
        let b = track[cursor + 1]
        let span = b.time - a.time
        guard span <= maximumGap else { return nil }
        let fraction = span > 0 ? (time - a.time) / span : 0
        return PlanarSample(
            time: time, east: a.east + (b.east - a.east) * fraction, north: a.north + (b.north - a.north) * fraction)
    }

    /// The mean distance (capped at ``cap``; ``cap`` where the track has no position) between the
    /// footage positions at `indices` and the track's at their times plus `offset`.
    func cost(offset: Double, indices: [Int], cursors: inout [Int]) -> Double {
        guard !indices.isEmpty else { return Self.cap }
        var total = 0.0
        for (slot, index) in indices.enumerated() {
            let sample = footage[index]
            if let position = trackPosition(at: sample.time + offset, cursor: &cursors[slot]) {
                total += min(Self.cap, sample.distance(to: position))
            } else {
                total += Self.cap
            }
        }
        return total / Double(indices.count)
    }

    /// ``cost(offset:indices:cursors:)`` without cursors kept between calls.
    func cost(offset: Double, indices: [Int]) -> Double {
        var cursors = [Int](repeating: 0, count: indices.count)
        return cost(offset: offset, indices: indices, cursors: &cursors)
    }

    /// The distances between the footage positions at `indices` and the track's at their times
    /// plus `offset`, for those the track has a position at.
    func distances(offset: Double, indices: [Int]) -> [Double] {
        var cursor = 0
        return indices.compactMap { index in
            let sample = footage[index]
            return trackPosition(at: sample.time + offset, cursor: &cursor).map { sample.distance(to: $0) }
        }
    }

    /// The offset in `range` where ``cost(offset:indices:)`` is least, by golden-section search
    /// (the cost is unimodal near a match), to within `tolerance` seconds.
    func minimum(in range: ClosedRange<Double>, indices: [Int], tolerance: Double = 0.005) -> Double {
        let ratio = (5.0.squareRoot() - 1) / 2
        var low = range.lowerBound
        var high = range.upperBound
        var a = high - ratio * (high - low)
        var b = low + ratio * (high - low)
        var costA = cost(offset: a, indices: indices)
        var costB = cost(offset: b, indices: indices)
        while high - low > tolerance {
            if costA <= costB {
                high = b
                b = a
                costB = costA
                a = high - ratio * (high - low)
                costA = cost(offset: a, indices: indices)
            } else {
                low = a
                a = b
                costA = costB
                b = low + ratio * (high - low)
                costB = cost(offset: b, indices: indices)
            }
        }
        return (low + high) / 2
    }

    /// Indices of footage positions at least `interval` seconds apart, from `indices` (all when nil).
    func thinned(every interval: Double, from indices: [Int]? = nil) -> [Int] {
        var kept: [Int] = []
        var last = -Double.infinity
        for index in indices ?? Array(footage.indices) where footage[index].time >= last + interval {
            kept.append(index)
            last = footage[index].time
        }
        return kept
    }
}
