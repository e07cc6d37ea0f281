/// The frame intervals a driver offers for one format and size, as `VIDIOC_ENUM_FRAMEINTERVALS`
/// reports them.
public enum FrameIntervalRange: Hashable, Sendable {
    /// These intervals only, in the driver's order.
    case discrete([FrameInterval])
    /// Any interval from `minimum` to `maximum` in steps of `step`.
    case stepwise(minimum: FrameInterval, maximum: FrameInterval, step: FrameInterval)
    /// Any interval from `minimum` to `maximum`.
    case continuous(minimum: FrameInterval, maximum: FrameInterval)

    /// The highest rate offered, in frames per second.
    public var fastestRate: Double {
        switch self {
        case .discrete(let intervals): intervals.map(\.framesPerSecond).max() ?? 0
        case .stepwise(let minimum, _, _), .continuous(let minimum, _): minimum.framesPerSecond
        }
    }

    /// The lowest rate offered, in frames per second.
    public var slowestRate: Double {
        switch self {
        case .discrete(let intervals): intervals.map(\.framesPerSecond).min() ?? 0
        case .stepwise(_, let maximum, _), .continuous(_, let maximum): maximum.framesPerSecond
        }
    }

    /// Whether a rate of `framesPerSecond` is offered, within 0.5 % (so 29.97 matches 30000/1001).
    public func offers(framesPerSecond rate: Double) -> Bool {
        let tolerance = rate * 0.005
        switch self {
        case .discrete(let intervals):
            return intervals.contains { abs($0.framesPerSecond - rate) <= tolerance }
        case .stepwise, .continuous:
            return rate >= slowestRate - tolerance && rate <= fastestRate + tolerance
        }
    }

    /// The rates offered, fastest first, for a discrete list; for a range, its two ends.
    public var listedRates: [Double] {
        switch self {
        case .discrete(let intervals):
            return Array(Set(intervals.map(\.framesPerSecond))).sorted(by: >)
        case .stepwise, .continuous:
            return [fastestRate, slowestRate]
        }
    }
}
