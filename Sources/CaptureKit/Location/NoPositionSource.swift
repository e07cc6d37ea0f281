/// A location source that declares that this capture needs no position.
///
/// `arcapture check` and plain `arcapture capture` assign it: they stream without placing anything
/// in the frame, and saying so explicitly keeps the rule that streaming follows the location source.
public final class NoPositionSource: LocationSource {
    /// Creates the source.
    public init() {}

    /// `none`.
    public var name: String { "none" }

    /// Always nil.
    public var currentCoordinate: GeodeticCoordinate? { nil }
}
