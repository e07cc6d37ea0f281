import Foundation

/// The offset that lines footage up with a separate track, found by matching the footage's own
/// motion (a GoPro's GPS, a drone's telemetry) against the track's: the seconds to add to the
/// footage's times (`--offset`) so that its positions meet the track's at the same moments.
///
/// The footage's positions are compared with the track's at their times plus a candidate offset,
/// over every offset at which the two can overlap (a coarse scan of thinned positions), then
/// refined on every position by golden-section search. Positions are matched rather than speeds
/// alone: a position says where along the route the footage is, so a steady speed still lines up;
/// the speeds' correlation at the offset found is given as a second, independent check. The
/// footage is then cut into up to eight windows and the offset found again in each: their
/// standard deviation is the ``spread``.
public struct TrackOffsetEstimate: Sendable, Equatable {
    /// A second offset at which the two match almost as well (a route driven twice, laps).
    public struct Rival: Sendable, Equatable {
        /// Seconds to add to the footage's times.
        public var offset: Double
        /// The median distance between the positions at that offset, in metres.
        public var medianMismatch: Double
    }

    /// Seconds to add to the footage's times (positive: the footage's clock was behind the track's).
    public var offset: Double
    /// The standard deviation of the offsets found in each window of the footage, in seconds; nil
    /// when fewer than two windows moved enough to give one.
    public var spread: Double?
    /// How many windows gave an offset.
    public var windows: Int
    /// The median distance between the footage's positions and the track's at ``offset``, in metres.
    public var medianMismatch: Double
    /// The correlation of the two ground speeds at ``offset`` (−1…1); nil when either speed barely
    /// changes (a steady speed correlates with nothing).
    public var speedCorrelation: Double?
    /// How many of the footage's positions fall within the track (its time, and no gap) at ``offset``.
    public var matchedFixes: Int
    /// How many positions the footage has.
    public var footageFixes: Int
    /// Another offset that matches almost as well, when there is one.
    public var rival: Rival?
    /// Why the offset should not be trusted, in a phrase; nil when it can be.
    public var problem: String?

    /// Whether the offset can be used without a look: it matches clearly better than any other,
    /// the positions agree, the windows agree, and most of the footage was compared.
    public var isReliable: Bool { problem == nil }

    /// The time-zone offset ``offset`` is close to (a whole number of hours, or of half hours, or
    /// a :45 zone's), in seconds, when it is one: within 2 minutes and at least half an hour away
    /// from 0. A camera set to local time against a track in UTC is off by its zone.
    public var likelyTimeZone: Double? {
        let quarter = (offset / 900).rounded()
        let zone = quarter * 900
        let minutes = Int(abs(zone) / 60) % 60
        guard abs(zone) >= 1800, abs(offset - zone) <= 120, minutes != 15 else { return nil }
        return zone
    }

    /// A time zone's offset in words: `+1 h`, `-3 h 30 min`, `+5 h 45 min`.
    public static func describeTimeZone(_ seconds: Double) -> String {
        let minutes = Int((abs(seconds) / 60).rounded())
        return "\(seconds < 0 ? "-" : "+")\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min")
    }

    /// Creates an estimate.
    public init(
        offset: Double, spread: Double?, windows: Int, medianMismatch: Double, speedCorrelation: Double?,
        matchedFixes: Int, footageFixes: Int, rival: Rival? = nil, problem: String? = nil
    ) {
        self.offset = offset
        self.spread = spread
        self.windows = windows
        self.medianMismatch = medianMismatch
        self.speedCorrelation = speedCorrelation
        self.matchedFixes = matchedFixes
        self.footageFixes = footageFixes
        self.rival = rival
        self.problem = problem
    }

    /// The median mismatch beyond which the two are taken for different trips (two receivers on
    /// one vehicle differ by a few metres, in a city's canyons by a few tens).
    static let mismatchLimit = 50.0
    /// The spread beyond which the windows disagree too much to trust the offset.
    static let spreadLimit = 5.0

    /// The offset that best lines up `footage` (the footage's own positions, timed by its clock
    /// with no offset) with `track`.
    ///
    /// - Parameters:
    ///   - footage: the footage's own positions, timed by its clock with no offset.
    ///   - track: the separate track's positions.
    ///   - maximumGap: the longest time between two track fixes that is interpolated across.
    /// - Throws: ``TrackOffsetError`` when either has too few positions, the footage does not move,
    ///   or no offset brings them together.
    public static func matching(
        footage: [LocationFix], track: [LocationFix], maximumGap: Double = 30
    ) throws(TrackOffsetError) -> TrackOffsetEstimate {
        guard footage.count >= 3 else { throw .tooFewFootageFixes(count: footage.count) }
        guard track.count >= 2 else { throw .tooFewTrackFixes(count: track.count) }
        let matcher = TrackMatcher(footage: footage, track: track, maximumGap: maximumGap)
        let all = Array(matcher.footage.indices)
        let extent = Self.extent(matcher.footage)
        guard extent >= 10 else { throw .footageDoesNotMove(extent: extent) }

        // Coarse: every offset at which the two overlap at all, on positions thinned to a few hundred.
        guard let footageFirst = matcher.footage.first?.time, let footageLast = matcher.footage.last?.time,
            let trackFirst = matcher.track.first?.time, let trackLast = matcher.track.last?.time
        else { throw .tooFewFootageFixes(count: 0) }
        let span = footageLast - footageFirst
        let coarse = matcher.thinned(every: max(0.25, span / 300))
        let speeds = Self.speeds(matcher.footage, indices: matcher.thinned(every: 1))
        let fastest = speeds.map(\.speed).max() ?? 0
        let typical = Self.median(speeds.map(\.speed)) ?? 0
        let low = trackFirst - footageLast
        let high = trackLast - footageFirst
        // A step the fastest motion cannot jump the cap's basin in, and no more than two million.
        var step = max(0.02, min(max(0.25, (high - low) / 40_000), TrackMatcher.cap / (2 * max(fastest, 0.1))))
        step = max(step, (high - low) / 2_000_000)
        let count = Int(((high - low) / step).rounded(.up)) + 1
        var cursors = [Int](repeating: 0, count: coarse.count)
        var costs = [Double](repeating: TrackMatcher.cap, count: count)
        for k in 0..<count {
            costs[k] = matcher.cost(offset: low + Double(k) * step, indices: coarse, cursors: &cursors)
        }
        guard let best = costs.indices.min(by: { costs[$0] < costs[$1] }), costs[best] < TrackMatcher.cap * 0.95
        else { throw .noMatch }
        let coarseOffset = low + Double(best) * step
        let offset = matcher.minimum(in: (coarseOffset - step)...(coarseOffset + step), indices: all)

        // The best local minimum clearly away from this one (outside its basin: the time the
        // footage's typical speed takes to cover 20 m, within 10 s to 2 minutes).
        let exclusion = min(120, max(10, 3 * step, typical > 0 ? 20 / typical : 120))
        var rivalIndex: Int?
        for k in costs.indices where abs(Double(k - best) * step) > exclusion {
            let left = k > 0 ? costs[k - 1] : .infinity
            let right = k + 1 < costs.count ? costs[k + 1] : .infinity
            guard costs[k] <= left, costs[k] <= right, costs[k] < TrackMatcher.cap * 0.95 else { continue }
            if rivalIndex.map({ costs[k] < costs[$0] }) ?? true { rivalIndex = k }
        }

        let distances = matcher.distances(offset: offset, indices: all)
        let mismatch = Self.median(distances) ?? TrackMatcher.cap
        var rival: Rival?
        if let rivalIndex {
            let rough = low + Double(rivalIndex) * step
            let refined = matcher.minimum(in: (rough - step)...(rough + step), indices: all)
            let rivalMismatch = Self.median(matcher.distances(offset: refined, indices: all)) ?? TrackMatcher.cap
            if rivalMismatch < 2 * mismatch + 5 { rival = Rival(offset: refined, medianMismatch: rivalMismatch) }
        }

        let window = Self.windowOffsets(matcher, around: offset, step: step)
        let spread = Self.standardDeviation(window)
        var estimate = TrackOffsetEstimate(
            offset: offset, spread: spread, windows: window.count, medianMismatch: mismatch,
            speedCorrelation: Self.speedCorrelation(matcher, speeds: speeds, offset: offset),
            matchedFixes: distances.count,
            footageFixes: footage.count, rival: rival)
        estimate.problem = estimate.doubt()
        return estimate
    }

    /// Why this estimate should not be trusted, nil when it can be.
    private func doubt() -> String? {
        if let rival {
            return String(
                format: "it matches almost as well at %+.1f s (median %.1f m against %.1f m): the route repeats "
                    + "(laps, a road driven twice)", rival.offset, rival.medianMismatch, medianMismatch)
        }
        if medianMismatch > Self.mismatchLimit {
            return String(
                format: "even at the best offset the positions are a median %.0f m apart: not the same trip?",
                medianMismatch)
        }
        if let spread, spread > Self.spreadLimit {
            return String(
                format: "the parts of the footage disagree (±%.1f s between %d windows): too little motion to tell",
                spread, windows)
        }
        if matchedFixes * 2 < footageFixes {
            return
                "only \(matchedFixes) of the footage's \(footageFixes) positions fall within the track at that offset"
        }
        return nil
    }

    /// The offsets found in up to eight windows of the footage that moved at least 2 m, each the
    /// best within a few seconds of `offset`.
    private static func windowOffsets(_ matcher: TrackMatcher, around offset: Double, step: Double) -> [Double] {
        var cursor = 0
        let matched = matcher.footage.indices.filter {
            matcher.trackPosition(at: matcher.footage[$0].time + offset, cursor: &cursor) != nil
        }
        guard let first = matched.first.map({ matcher.footage[$0].time }),
            let last = matched.last.map({ matcher.footage[$0].time })
        else { return [] }
        let windows = min(8, Int((last - first) / 2))
        guard windows >= 2 else { return [] }
        let width = (last - first) / Double(windows)
        let reach = max(3, 2 * step)
        var offsets: [Double] = []
        for number in 0..<windows {
            let start = first + Double(number) * width
            let end = number == windows - 1 ? last + 1 : start + width
            let indices = matched.filter { matcher.footage[$0].time >= start && matcher.footage[$0].time < end }
            guard indices.count >= 3, let a = indices.first, let b = indices.last,
                matcher.footage[a].distance(to: matcher.footage[b]) >= 2
            else { continue }
            // A scan first (a window's cost is flatter, and may have shallow dips), then refined.
            var bestOffset = offset
            var bestCost = Double.infinity
            var candidate = offset - reach
            while candidate <= offset + reach {
                let cost = matcher.cost(offset: candidate, indices: indices)
                if cost < bestCost { (bestOffset, bestCost) = (candidate, cost) }
                candidate += 0.1
            }
            offsets.append(matcher.minimum(in: (bestOffset - 0.1)...(bestOffset + 0.1), indices: indices))
        }
        return offsets
    }

    /// The correlation between the footage's ground speed (`speeds`, between positions about a
    /// second apart) and the track's over the same spans at `offset`; nil when either speed's
    /// standard deviation is under 0.2 m/s.
    private static func speedCorrelation(
        _ matcher: TrackMatcher, speeds: [(from: PlanarSample, to: PlanarSample, speed: Double)], offset: Double
    ) -> Double? {
        var pairs: [(Double, Double)] = []
        var cursor = 0
        for item in speeds {
            guard let a = matcher.trackPosition(at: item.from.time + offset, cursor: &cursor),
                let b = matcher.trackPosition(at: item.to.time + offset, cursor: &cursor)
            else { continue }
            pairs.append((item.speed, a.distance(to: b) / (item.to.time - item.from.time)))
        }
        guard pairs.count >= 5, let a = standardDeviation(pairs.map(\.0)), let b = standardDeviation(pairs.map(\.1)),
            a >= 0.2, b >= 0.2
        else { return nil }
        let meanA = pairs.map(\.0).reduce(0, +) / Double(pairs.count)
        let meanB = pairs.map(\.1).reduce(0, +) / Double(pairs.count)
        let covariance = pairs.map { ($0.0 - meanA) * ($0.1 - meanB) }.reduce(0, +) / Double(pairs.count - 1)
        return covariance / (a * b)
    }

    /// The speeds between consecutive positions at `indices`.
    private static func speeds(_ samples: [PlanarSample], indices: [Int]) -> [(
        from: PlanarSample, to: PlanarSample, speed: Double
    )] {
        zip(indices, indices.dropFirst()).compactMap { a, b in
            let seconds = samples[b].time - samples[a].time
            guard seconds > 0 else { return nil }
            return (samples[a], samples[b], samples[a].distance(to: samples[b]) / seconds)
        }
    }

    /// The diagonal of the box around `samples`, in metres.
    private static func extent(_ samples: [PlanarSample]) -> Double {
        guard let first = samples.first else { return 0 }
        var (minimumEast, maximumEast, minimumNorth, maximumNorth) = (first.east, first.east, first.north, first.north)
        for sample in samples {
            minimumEast = min(minimumEast, sample.east)
            maximumEast = max(maximumEast, sample.east)
            minimumNorth = min(minimumNorth, sample.north)
            maximumNorth = max(maximumNorth, sample.north)
        }
        let east = maximumEast - minimumEast
        let north = maximumNorth - minimumNorth
        return (east * east + north * north).squareRoot()
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    private static func standardDeviation(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count - 1)).squareRoot()
    }
}
