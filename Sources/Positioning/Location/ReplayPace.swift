/// How a recorded source plays its samples.
public enum ReplayPace: Hashable, Sendable {
    /// As recorded, `speed` times faster (1 is real time; 10 plays ten minutes in one).
    case realTime(speed: Double)
    /// Everything at once, as fast as observers take it.
    case immediate
    /// Driven by frame times: samples up to a time are played when the pipeline calls
    /// ``RecordedLocationSource/advance(to:)`` for a frame.
    case frameDriven
}
