/// A control's state flags (`V4L2_CTRL_FLAG_*`).
public struct ControlFlags: OptionSet, Hashable, Sendable {
    /// The flag bits.
    public let rawValue: UInt32

    /// Wraps flag bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Permanently unavailable; drivers list it only for backwards compatibility.
    public static let disabled = ControlFlags(rawValue: 0x0001)
    /// Temporarily locked, for example while streaming.
    public static let grabbed = ControlFlags(rawValue: 0x0002)
    /// Can be read but not written.
    public static let readOnly = ControlFlags(rawValue: 0x0004)
    /// Changing it may change other controls.
    public static let update = ControlFlags(rawValue: 0x0008)
    /// Has no effect in the current configuration (for example exposure while auto exposure is on).
    public static let inactive = ControlFlags(rawValue: 0x0010)
    /// Best shown as a slider.
    public static let slider = ControlFlags(rawValue: 0x0020)
    /// Can be written but not read.
    public static let writeOnly = ControlFlags(rawValue: 0x0040)
    /// The value changes by itself (for example a gain under auto gain).
    public static let volatile = ControlFlags(rawValue: 0x0080)

    /// Names of the set flags, as v4l2-ctl prints them.
    public var names: [String] {
        let all: [(ControlFlags, String)] = [
            (.disabled, "disabled"), (.grabbed, "grabbed"), (.readOnly, "read-only"), (.update, "update"),
            (.inactive, "inactive"), (.slider, "slider"), (.writeOnly, "write-only"), (.volatile, "volatile"),
        ]
        return all.filter { contains($0.0) }.map(\.1)
    }
}
