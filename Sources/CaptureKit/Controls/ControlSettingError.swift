import ArcaptureCore

/// Why a ``ControlSetting`` cannot be applied to a device.
public enum ControlSettingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No control has that name or id.
    case unknownControl(setting: String, available: [String])
    /// The control can only be read.
    case readOnly(control: String)
    /// The value is not one the control accepts.
    case invalidValue(control: String, value: String, accepted: String)
    /// The number is outside the control's range or off its step.
    case outOfRange(control: String, value: Int64, range: String)
    /// The driver refused the value.
    case rejected(control: String, SystemCallError)

    /// One line naming the control and what it accepts.
    public var description: String {
        switch self {
        case .unknownControl(let setting, let available):
            "no control for '\(setting)' (this device has: \(available.joined(separator: ", ")))"
        case .readOnly(let control): "\(control) is read-only"
        case .invalidValue(let control, let value, let accepted):
            "\(control) cannot be '\(value)' (it accepts: \(accepted))"
        case .outOfRange(let control, let value, let range): "\(control) must be \(range), not \(value)"
        case .rejected(let control, let error): "the driver refused \(control): \(error)"
        }
    }
}
