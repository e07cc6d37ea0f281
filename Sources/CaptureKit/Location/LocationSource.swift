/// Where a session's position comes from.
///
/// A ``CaptureSession`` streams only while a location source is assigned: the geo-AR rule that
/// capture starts when a location source is assigned, not when the view is created, so a program
/// cannot film without deciding where its position comes from. Programs that need no position assign
/// ``NoPositionSource`` explicitly, which keeps the rule visible in their code.
///
/// This version carries fixed sources only; live sources (gpsd, NMEA, GPX) conform to the same protocol.
public protocol LocationSource: AnyObject, Sendable {
    /// A short description for logs and reports, such as `fixed 60.17,24.94` or `none`.
    var name: String { get }
    /// The current position, or nil when the source has none (yet, or by design).
    var currentCoordinate: GeodeticCoordinate? { get }
}
