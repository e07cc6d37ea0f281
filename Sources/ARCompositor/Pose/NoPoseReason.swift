/// Why a frame has no pose: said, never guessed.
public enum NoPoseReason: Error, Hashable, Sendable, CustomStringConvertible {
    /// There are no positions at all.
    case noPositions
    /// The frame is this many seconds before the first position (beyond the extrapolation limit).
    case beforeTrack(seconds: Double)
    /// The frame is this many seconds after the last position (beyond the extrapolation limit).
    case afterTrack(seconds: Double)
    /// The positions around the frame are this many seconds apart (more than the gap limit).
    case positionGap(seconds: Double)
    /// There is no orientation near the frame (none at all, or beyond the limits).
    case noOrientation
    /// The orientations around the frame are this many seconds apart.
    case orientationGap(seconds: Double)

    /// `before the track by 12.3 s`, `in a 20.0 s gap between positions`…
    public var description: String {
        func seconds(_ value: Double) -> String { String(format: "%.1f s", value) }
        switch self {
        case .noPositions: return "no positions"
        case .beforeTrack(let value): return "before the track by \(seconds(value))"
        case .afterTrack(let value): return "after the track by \(seconds(value))"
        case .positionGap(let value): return "in a \(seconds(value)) gap between positions"
        case .noOrientation: return "no orientation near this time"
        case .orientationGap(let value): return "in a \(seconds(value)) gap between orientations"
        }
    }
}
