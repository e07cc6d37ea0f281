/// A control to set when the stream starts, as a user writes it: `brightness=60%`,
/// `zoom_absolute=150`, `exposure_auto=manual`, `0x009a090d=150`.
public struct ControlSetting: Hashable, Sendable, CustomStringConvertible {
    /// Which control.
    public enum Target: Hashable, Sendable {
        /// By v4l2-ctl's identifier (`zoom_absolute`) or the driver's name ("Zoom, Absolute").
        case name(String)
        /// By `V4L2_CID_*` number.
        case id(UInt32)
    }

    /// The value as written.
    public enum Value: Hashable, Sendable {
        /// A number.
        case integer(Int64)
        /// A share of the control's range: 0 % is its minimum, 100 % its maximum.
        case percent(Double)
        /// A menu item's name or a word (`on`, `manual`).
        case word(String)
    }

    /// Which control.
    public var target: Target
    /// The value.
    public var value: Value

    /// Creates a setting.
    public init(target: Target, value: Value) {
        self.target = target
        self.value = value
    }

    /// Parses `NAME=VALUE`; nil when there is no `=`, no name or no value.
    public init?(parsing text: String) {
        guard let equals = text.firstIndex(of: "=") else { return nil }
        let name = String(text[..<equals]).trimmingCharacters(in: " ")
        let valueText = String(text[text.index(after: equals)...]).trimmingCharacters(in: " ")
        guard !name.isEmpty, !valueText.isEmpty else { return nil }
        if name.lowercased().hasPrefix("0x"), let id = UInt32(name.dropFirst(2), radix: 16) {
            target = .id(id)
        } else if let id = UInt32(name) {
            target = .id(id)
        } else {
            target = .name(name)
        }
        if valueText.hasSuffix("%"), let percent = Double(valueText.dropLast()), percent.isFinite {
            value = .percent(percent)
        } else if let number = Int64(valueText) {
            value = .integer(number)
        } else if valueText.lowercased().hasPrefix("0x"), let number = Int64(valueText.dropFirst(2), radix: 16) {
            value = .integer(number)
        } else {
            value = .word(valueText)
        }
    }

    /// `NAME=VALUE`, as parsed.
    public var description: String {
        let name: String
        switch target {
        case .name(let text): name = text
        case .id(let id): name = "0x" + String(id, radix: 16)
        }
        switch value {
        case .integer(let number): return "\(name)=\(number)"
        case .percent(let percent): return "\(name)=\(FrameInterval.formatRate(percent))%"
        case .word(let word): return "\(name)=\(word)"
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var slice = self[...]
        while slice.first == character { slice.removeFirst() }
        while slice.last == character { slice.removeLast() }
        return String(slice)
    }
}
