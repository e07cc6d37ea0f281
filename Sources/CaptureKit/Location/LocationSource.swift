/// Where positions come from: a receiver through gpsd, NMEA from a serial port or a file, a GPX
/// track, or a fixed position.
///
/// A ``CaptureSession`` streams only while a location source is assigned (the geo-AR rule: capture
/// starts when a location source is assigned, not when the view is created), and assigning one
/// starts it. Programs that need no position assign ``NoPositionSource`` explicitly, which keeps the
/// rule visible in their code.
///
/// Sources deliver ``LocationEvent``s to every observer (observers compose, as the session's do):
/// fixes, receiver-measured orientations, status changes and warnings about skipped input. Events
/// arrive on the source's own thread, in order; an observer must not block it.
public protocol LocationSource: AnyObject, Sendable {
    /// A short description for logs and reports, such as `gpsd://127.0.0.1:2947` or `none`.
    var name: String { get }
    /// The status now.
    var status: LocationStatus { get }
    /// The newest fix, if there has been one.
    var latestFix: LocationFix? { get }
    /// Adds an observer, which is told the current status at once and then every event.
    func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation
    /// Starts delivering events (connects, opens the port, starts replaying). Idempotent.
    func start()
    /// Stops delivering events and releases what the source holds. Idempotent; ``start()`` may follow.
    func stop()
}

extension LocationSource {
    /// The newest fix's position, or nil when there is none (yet, or by design).
    public var currentCoordinate: GeodeticCoordinate? { latestFix?.coordinate }
}
