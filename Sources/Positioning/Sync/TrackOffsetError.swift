/// Why no offset between footage and a track could be estimated at all.
public enum TrackOffsetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The footage's own positions are too few to match.
    case tooFewFootageFixes(count: Int)
    /// The track's positions are too few to match.
    case tooFewTrackFixes(count: Int)
    /// The footage's own positions stay within `extent` metres: standing still matches any time the
    /// track stood at that place, so its motion says nothing about the clocks.
    case footageDoesNotMove(extent: Double)
    /// At no offset do the footage's positions come within the matching distance of the track's:
    /// the two are not the same trip.
    case noMatch

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .tooFewFootageFixes(let count):
            "the footage has \(count) position\(count == 1 ? "" : "s") of its own; at least 3 are needed to match its motion"
        case .tooFewTrackFixes(let count):
            "the track has \(count) position\(count == 1 ? "" : "s"); at least 2 are needed to match against"
        case .footageDoesNotMove(let extent):
            String(
                format: "the footage's own positions stay within %.0f m: standing still matches the track wherever it "
                    + "stood there, so its motion cannot tell the clocks apart", extent)
        case .noMatch:
            "at no offset do the footage's positions come within \(Int(TrackMatcher.cap)) m of the track's: they are "
                + "not the same trip"
        }
    }
}
