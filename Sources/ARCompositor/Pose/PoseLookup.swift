/// A frame's pose, or why it has none.
public enum PoseLookup: Hashable, Sendable {
    /// The pose, interpolated or (within the limit) extrapolated.
    case pose(PoseEstimate)
    /// No pose: the frame is shown as such rather than guessed.
    case noPose(NoPoseReason)

    /// The estimate, when there is one.
    public var estimate: PoseEstimate? {
        if case .pose(let estimate) = self { return estimate }
        return nil
    }
}
