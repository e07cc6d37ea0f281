/// What `--offset` gives: seconds, or `auto` (found by matching the footage's own GPS with the track).
enum FootageOffset: Sendable, Equatable {
    /// Seconds added to every frame's time.
    case seconds(Double)
    /// Found by matching the footage's own motion with the track's.
    case matched
}
