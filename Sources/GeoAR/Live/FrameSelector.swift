/// Decides, frame by frame, which captured frames to write: warm-up first (a fixed number, or until
/// the brightness settles), then every frame or one per interval, until a count or a duration.
///
/// Time comes from the frames' own timestamps, so a time-lapse does not drift with scheduling: the
/// k-th frame written is the first whose timestamp reaches start + k·interval.
public struct FrameSelector: Sendable {
    /// How warm-up ends.
    public enum WarmUp: Equatable, Sendable {
        /// Write from the first frame.
        case none
        /// Drop this many frames.
        case skip(Int)
        /// Drop frames until the mean luma of three in a row differs by at most `tolerance` levels,
        /// or `limit` frames have gone by.
        case settle(tolerance: Double, limit: Int)
    }

    /// What to do with a frame.
    public enum Decision: Equatable, Sendable {
        case write
        case warmUp
        case notDue
        case finished
    }

    /// How warm-up ends.
    public let warmUp: WarmUp
    /// The time between written frames (a time-lapse), or nil for every frame.
    public let interval: Duration?
    /// Frames to write, or nil for no limit.
    public let count: Int?
    /// The time from the first written frame after which the capture is finished, or nil.
    public let duration: Duration?

    /// Frames dropped while warming up.
    public private(set) var warmUpSkipped = 0
    /// Frames recorded as written.
    public private(set) var written = 0
    private var warmingUp: Bool
    private var recentBrightness: [Double] = []
    private var start: Int64?
    private var nextDue: Int64?

    /// Creates a selector that has seen no frame.
    public init(warmUp: WarmUp, interval: Duration?, count: Int?, duration: Duration?) {
        self.warmUp = warmUp
        self.interval = interval
        self.count = count
        self.duration = duration
        warmingUp = warmUp != .none
    }

    /// Whether the count is reached.
    public var isFinished: Bool { count.map { written >= $0 } ?? false }

    /// Decides for a frame with timestamp `nanoseconds` and mean luma `brightness` (asked for only
    /// while settling). A `.write` must be followed by ``recordWrite(timestampNanoseconds:)`` once
    /// the frame is written.
    public mutating func decide(timestampNanoseconds nanoseconds: Int64, brightness: () -> Double?) -> Decision {
        if isFinished { return .finished }
        if warmingUp {
            switch warmUp {
            case .none:
                warmingUp = false
            case .skip(let frames):
                if warmUpSkipped < frames {
                    warmUpSkipped += 1
                    return .warmUp
                }
                warmingUp = false
            case .settle(let tolerance, let limit):
                if let level = brightness() { recentBrightness = Array((recentBrightness + [level]).suffix(3)) }
                let settled =
                    recentBrightness.count == 3
                    && (recentBrightness.max() ?? 0) - (recentBrightness.min() ?? 0) <= tolerance
                if !settled && warmUpSkipped < limit {
                    warmUpSkipped += 1
                    return .warmUp
                }
                warmingUp = false
            }
        }
        let start = self.start ?? nanoseconds
        self.start = start
        if let duration, nanoseconds - start >= duration.nanoseconds { return .finished }
        if let interval, nanoseconds < nextDue ?? start, interval > .zero { return .notDue }
        return .write
    }

    /// Records that the frame decided `.write` was written. A frame that could not be written (a
    /// damaged MJPEG frame) is not recorded, so the next frame takes its place.
    public mutating func recordWrite(timestampNanoseconds nanoseconds: Int64) {
        written += 1
        guard let interval, let start else { return }
        // The next slot after this frame: slots missed in a stall are not made up in a burst.
        let step = max(interval.nanoseconds, 1)
        nextDue = start + ((nanoseconds - start) / step + 1) * step
    }
}
