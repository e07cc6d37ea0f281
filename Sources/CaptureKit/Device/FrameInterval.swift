/// The time between two frames, as a fraction of a second (V4L2's `timeperframe`).
///
/// 1/30 is 30 frames per second. V4L2 expresses rates as intervals so that NTSC's 1001/30000 is
/// exact; ``framesPerSecond`` is the reciprocal for display.
public struct FrameInterval: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Seconds per frame, numerator.
    public var numerator: UInt32
    /// Seconds per frame, denominator.
    public var denominator: UInt32

    /// Creates an interval of `numerator`/`denominator` seconds.
    public init(numerator: UInt32, denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The interval for a rate in frames per second, kept exact for rates with up to three decimals
    /// (12.5 fps is 2/25 s, reduced).
    public init?(framesPerSecond: Double) {
        guard framesPerSecond.isFinite, framesPerSecond > 0, framesPerSecond <= 1_000_000 else { return nil }
        var numerator: UInt32 = 1000
        var denominator = UInt32((framesPerSecond * 1000).rounded())
        guard denominator > 0 else { return nil }
        let divisor = Self.greatestCommonDivisor(numerator, denominator)
        numerator /= divisor
        denominator /= divisor
        self.init(numerator: numerator, denominator: denominator)
    }

    /// Frames per second (`denominator / numerator`), or 0 for a zero interval.
    public var framesPerSecond: Double {
        numerator == 0 ? 0 : Double(denominator) / Double(numerator)
    }

    /// Seconds between frames.
    public var seconds: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }

    /// The rate, as people say it: `30 fps`, `12.5 fps`, `29.97 fps`.
    public var description: String { "\(FrameInterval.formatRate(framesPerSecond)) fps" }

    /// Formats a rate with at most two decimals and no trailing zeros.
    static func formatRate(_ rate: Double) -> String {
        let hundredths = (rate * 100).rounded()
        let whole = Int(hundredths / 100)
        let fraction = Int(hundredths) - whole * 100
        if fraction == 0 { return "\(whole)" }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private static func greatestCommonDivisor(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a
    }
}
