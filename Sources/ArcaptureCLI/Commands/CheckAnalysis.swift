/// The figures `check` reports, computed from the frames it received.
///
/// Rate and jitter come from the driver's timestamps, not from when frames reached this process, so
/// they describe the camera rather than the scheduler. Intervals across a dropped frame are left out
/// of the jitter figures (they are whole multiples of the frame time and would swamp the spread).
struct CheckAnalysis: Equatable, Sendable {
    var received = 0
    var valid = 0
    var invalid = 0
    var dropped = 0
    var firstSequence: UInt32?
    var lastSequence: UInt32?
    /// Seconds from the first frame's timestamp to the last's.
    var spanSeconds: Double?
    /// Frames received per second of timestamp span.
    var measuredFPS: Double?
    /// Frames the sensor produced per second, counting dropped ones (from sequence numbers).
    var sensorFPS: Double?
    /// Whether every timestamp is later than the one before.
    var monotonic = true
    var intervalMeanMilliseconds: Double?
    /// The standard deviation of the frame intervals.
    var jitterMilliseconds: Double?
    /// The largest distance of an interval from the nominal frame time.
    var maxDeviationMilliseconds: Double?
    /// Valid frames whose picture was read (their luma statistics).
    var pictureFrames = 0
    /// Their mean luma and mean spread, 0–255.
    var lumaMean: Double?
    var lumaSpread: Double?
    /// Of them, the black ones and the flat ones (see ``PictureThresholds``).
    var blackFrames = 0
    var flatFrames = 0
    /// Valid frames that repeat the frame before byte for byte.
    var repeatedFrames = 0

    /// Analyses `records` in arrival order; `nominalInterval` is the applied frame time in seconds,
    /// when the driver reports one (else the mean interval is the reference).
    init(_ records: [FrameRecord], nominalInterval: Double?) {
        received = records.count
        invalid = records.filter { $0.problem != nil }.count
        valid = received - invalid
        dropped = records.dropFirst().reduce(0) { $0 + Int($1.droppedBefore) }
        firstSequence = records.first?.sequence
        lastSequence = records.last?.sequence
        let pictures = records.filter { $0.problem == nil }.compactMap(\.luma)
        pictureFrames = pictures.count
        if !pictures.isEmpty {
            lumaMean = pictures.reduce(0) { $0 + $1.mean } / Double(pictures.count)
            lumaSpread = pictures.reduce(0) { $0 + $1.spread } / Double(pictures.count)
            blackFrames = pictures.filter(PictureThresholds.isBlack).count
            flatFrames = pictures.filter(PictureThresholds.isFlat).count
        }
        repeatedFrames = records.dropFirst().filter { $0.problem == nil && $0.repeatsPrevious }.count
        guard let first = records.first, let last = records.last, records.count >= 2 else { return }
        var intervals: [Double] = []
        for (previous, current) in zip(records, records.dropFirst()) {
            if current.timestampNanoseconds <= previous.timestampNanoseconds { monotonic = false }
            if current.droppedBefore == 0 {
                intervals.append(Double(current.timestampNanoseconds - previous.timestampNanoseconds) / 1e9)
            }
        }
        let span = Double(last.timestampNanoseconds - first.timestampNanoseconds) / 1e9
        spanSeconds = span
        if span > 0 {
            measuredFPS = Double(records.count - 1) / span
            sensorFPS = Double(last.sequence &- first.sequence) / span
        }
        guard !intervals.isEmpty else { return }
        let mean = intervals.reduce(0, +) / Double(intervals.count)
        let variance = intervals.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(intervals.count)
        let reference = nominalInterval ?? mean
        intervalMeanMilliseconds = mean * 1000
        jitterMilliseconds = variance.squareRoot() * 1000
        maxDeviationMilliseconds = intervals.map { abs($0 - reference) }.max().map { $0 * 1000 }
    }
}
