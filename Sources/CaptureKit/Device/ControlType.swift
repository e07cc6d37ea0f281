/// The kind of value a V4L2 control holds (`V4L2_CTRL_TYPE_*`).
///
/// An open set: drivers define compound types this version does not know, and those are listed
/// with their number rather than rejected.
public struct ControlType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The `V4L2_CTRL_TYPE_*` value.
    public let rawValue: UInt32

    /// Wraps a type value.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A 32-bit integer within a range and step.
    public static let integer = ControlType(rawValue: 1)
    /// On or off.
    public static let boolean = ControlType(rawValue: 2)
    /// One of a set of named items.
    public static let menu = ControlType(rawValue: 3)
    /// An action with no value (writing it triggers something).
    public static let button = ControlType(rawValue: 4)
    /// A 64-bit integer.
    public static let integer64 = ControlType(rawValue: 5)
    /// A heading for the controls that follow; not a control.
    public static let controlClass = ControlType(rawValue: 6)
    /// A string.
    public static let string = ControlType(rawValue: 7)
    /// A set of bits.
    public static let bitmask = ControlType(rawValue: 8)
    /// One of a set of integer values.
    public static let integerMenu = ControlType(rawValue: 9)
    /// An array of 8-bit values (a compound control).
    public static let u8 = ControlType(rawValue: 0x0100)
    /// An array of 16-bit values (a compound control).
    public static let u16 = ControlType(rawValue: 0x0101)
    /// An array of 32-bit values (a compound control).
    public static let u32 = ControlType(rawValue: 0x0102)
    /// A width and height (a compound control).
    public static let area = ControlType(rawValue: 0x0106)

    /// Whether the control's value is a single number read through `VIDIOC_G_EXT_CTRLS`.
    var hasScalarValue: Bool {
        [.integer, .boolean, .menu, .integer64, .bitmask, .integerMenu].contains(self)
    }

    /// The name v4l2-ctl uses: `int`, `bool`, `menu`, `button`, `int64`, `ctrl_class`, `str`,
    /// `bitmask`, `intmenu`, `u8`, `u16`, `u32`, `area`, or `type N` for another compound type.
    public var description: String {
        switch self {
        case .integer: "int"
        case .boolean: "bool"
        case .menu: "menu"
        case .button: "button"
        case .integer64: "int64"
        case .controlClass: "ctrl_class"
        case .string: "str"
        case .bitmask: "bitmask"
        case .integerMenu: "intmenu"
        case .u8: "u8"
        case .u16: "u16"
        case .u32: "u32"
        case .area: "area"
        default: "type \(rawValue)"
        }
    }
}
