/// A location source that declares that this capture needs no position.
///
/// `arcapture check` and plain `arcapture capture` assign it: they stream without placing anything
/// in the frame, and saying so explicitly keeps the rule that streaming follows the location source.
/// Its status is always ``LocationStatus/notRequired``, so the session does not wait for a fix.
public final class NoPositionSource: LocationSource {
    private let hub = LocationEventHub(status: .notRequired)

    /// Creates the source.
    public init() {}

    /// `none`.
    public var name: String { "none" }

    /// Always ``LocationStatus/notRequired``.
    public var status: LocationStatus { .notRequired }

    /// Always nil.
    public var latestFix: LocationFix? { nil }

    /// Tells the observer ``LocationStatus/notRequired``; nothing follows.
    public func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.addObserver(observer)
    }

    /// Does nothing.
    public func start() {}

    /// Does nothing.
    public func stop() {}
}
