/// What location and pose sources have in common: a name, a status, observers, start and stop.
///
/// Sources deliver ``LocationEvent``s to every observer (observers compose): samples, status
/// changes and warnings about skipped input. Events arrive on the source's own thread, in order;
/// an observer must not block it.
public protocol EventSource: AnyObject, Sendable {
    /// A short description for logs and reports, such as `gpsd://127.0.0.1:2947` or `none`.
    var name: String { get }
    /// The status now.
    var status: LocationStatus { get }
    /// Adds an observer, which is told the current status at once and then every event.
    func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation
    /// Starts delivering events (connects, opens the port, starts replaying). Idempotent.
    func start()
    /// Stops delivering events and releases what the source holds. Idempotent; ``start()`` may follow.
    func stop()
}
