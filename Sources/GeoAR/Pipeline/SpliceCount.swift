/// How many of a run's JPEG frames drawn on were spliced (only the MCUs the overlay touches coded
/// again) and how many were decoded and encoded whole although splicing was on, with why the
/// first of those was not spliced: what a run's summary says of splicing.
public struct SpliceCount: Sendable, Equatable {
    /// Frames spliced.
    public var spliced = 0
    /// Frames decoded and encoded whole although splicing was on.
    public var notSpliced = 0
    /// Why the first of those was not spliced ("optimised Huffman tables...").
    public var firstReason: String?

    /// No frames counted.
    public init() {}

    /// For a summary: "48 spliced", "3 of 5 spliced, not: …", or nil when no frame could have
    /// been (splicing off, no JPEG frames drawn on).
    public var summary: String? {
        let total = spliced + notSpliced
        guard total > 0 else { return nil }
        guard notSpliced > 0 else { return "\(total) spliced" }
        return "\(spliced) of \(total) spliced, not: \(firstReason ?? "unknown")"
    }

    /// Counts a frame's outcome (nil: it was not a JPEG frame drawn on with splicing on).
    mutating func record(_ outcome: SpliceOutcome?) {
        switch outcome {
        case .spliced: spliced += 1
        case .whole(let why):
            notSpliced += 1
            if firstReason == nil { firstReason = why }
        case nil: break
        }
    }
}
