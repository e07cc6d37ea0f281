/// How far interpolation may reach: a pose is never guessed across a long gap or far past the data.
public struct InterpolationLimits: Hashable, Sendable {
    /// The longest time between the two samples around a frame that still counts as continuous
    /// data; a longer gap means "no pose" for frames inside it. Default 30 s: GPS loggers in
    /// "smart recording" mode write a point every 8–30 s on a steady course (the sample tracks
    /// do), while a 1 Hz receiver silent for longer has lost the sky. Live pipelines with a 1 Hz
    /// receiver may set a few seconds.
    public var maximumGap: Double
    /// How far before the first or after the last sample a pose may be extrapolated. Default 1 s:
    /// a live frame is usually newer than the newest fix by up to one fix interval.
    public var maximumExtrapolation: Double

    /// Creates limits, in seconds.
    public init(maximumGap: Double = 30, maximumExtrapolation: Double = 1) {
        self.maximumGap = maximumGap
        self.maximumExtrapolation = maximumExtrapolation
    }
}
