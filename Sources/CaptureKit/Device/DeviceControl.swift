/// A device control, such as brightness or zoom, as `VIDIOC_QUERY_EXT_CTRL` describes it, with its
/// current value.
public struct DeviceControl: Hashable, Sendable {
    /// The control's id (`V4L2_CID_*`).
    public var id: UInt32
    /// The driver's name, such as "Zoom, Absolute".
    public var name: String
    /// What kind of value it holds.
    public var type: ControlType
    /// The smallest value (for a menu: the first index).
    public var minimum: Int64
    /// The largest value (for a menu: the last index).
    public var maximum: Int64
    /// The step between valid values.
    public var step: UInt64
    /// The driver's default value.
    public var defaultValue: Int64
    /// The current value; nil for write-only, button, string and compound controls, or when reading
    /// failed.
    public var value: Int64?
    /// State flags.
    public var flags: ControlFlags
    /// The items of a menu or integer-menu control, in index order (drivers may skip indices).
    public var menuItems: [MenuItem]

    /// Creates a control description.
    public init(
        id: UInt32, name: String, type: ControlType, minimum: Int64, maximum: Int64, step: UInt64,
        defaultValue: Int64, value: Int64?, flags: ControlFlags, menuItems: [MenuItem] = []
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.flags = flags
        self.menuItems = menuItems
    }

    /// The name as v4l2-ctl writes it for `--set-ctrl`: lowercase, with runs of other characters
    /// turned into one underscore ("Zoom, Absolute" is `zoom_absolute`).
    public var identifier: String {
        var result = ""
        var pendingSeparator = false
        for character in name.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                if pendingSeparator && !result.isEmpty { result.append("_") }
                result.append(character)
                pendingSeparator = false
            } else {
                pendingSeparator = true
            }
        }
        return result
    }
}

/// One item of a menu or integer-menu control.
public struct MenuItem: Hashable, Sendable {
    /// The value written to select this item.
    public var index: UInt32
    /// The item's name, for a menu control.
    public var name: String?
    /// The item's value, for an integer-menu control.
    public var value: Int64?

    /// Creates a menu item.
    public init(index: UInt32, name: String? = nil, value: Int64? = nil) {
        self.index = index
        self.name = name
        self.value = value
    }
}
