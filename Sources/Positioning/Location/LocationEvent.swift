/// What a ``LocationSource`` tells its observers.
public enum LocationEvent: Hashable, Sendable {
    /// A new position. A source that merges several messages of one epoch (gpsd's TPVs) may send a
    /// fix again with the same ``LocationFix/time`` and more fields: it replaces the earlier one.
    case fix(LocationFix)
    /// A heading (and maybe pitch and roll) measured by the receiver: NMEA HDT/THS/PASHR, gpsd ATT.
    case orientation(OrientationSample)
    /// The source's status changed.
    case status(LocationStatus)
    /// Input was skipped (a bad checksum, a malformed message); the source goes on.
    case warning(String)
}
