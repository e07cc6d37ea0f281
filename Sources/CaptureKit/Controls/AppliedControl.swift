/// A control a session set, and what the driver kept.
public struct AppliedControl: Hashable, Sendable, CustomStringConvertible {
    /// v4l2-ctl's name for the control, such as `zoom_absolute`.
    public var identifier: String
    /// The setting as given.
    public var requested: String
    /// The value written (after clamping).
    public var written: Int64
    /// The value read back from the driver, when it can be read.
    public var current: Int64?
    /// Whether the value was clamped to the control's range.
    public var clamped: Bool

    /// Creates a record.
    public init(identifier: String, requested: String, written: Int64, current: Int64?, clamped: Bool) {
        self.identifier = identifier
        self.requested = requested
        self.written = written
        self.current = current
        self.clamped = clamped
    }

    /// `zoom_absolute=500 (clamped from zoom_absolute=900)` or `brightness=153 (60%)`.
    public var description: String {
        var text = "\(identifier)=\(current ?? written)"
        if clamped {
            text += " (clamped from \(requested))"
        } else if requested != "\(identifier)=\(written)" {
            text += " (\(requested))"
        }
        return text
    }
}
