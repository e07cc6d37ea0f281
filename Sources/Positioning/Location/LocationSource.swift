/// Where positions come from: a receiver through gpsd, NMEA from a serial port or a file, a GPX
/// track, or a fixed position.
///
/// A `CaptureSession` streams only while a location source is assigned (the geo-AR rule: capture
/// starts when a location source is assigned, not when the view is created), and assigning one
/// starts it. Programs that need no position assign ``NoPositionSource`` explicitly, which keeps the
/// rule visible in their code.
///
/// Its events (see ``EventSource``) are fixes, receiver-measured orientations, status changes and
/// warnings about skipped input.
public protocol LocationSource: EventSource {
    /// The newest fix, if there has been one.
    var latestFix: LocationFix? { get }
}

extension LocationSource {
    /// The newest fix's position, or nil when there is none (yet, or by design).
    public var currentCoordinate: GeodeticCoordinate? { latestFix?.coordinate }
}
