/// A ``ControlSetting`` matched to one of the device's controls, with the number to write.
public struct ControlResolution: Hashable, Sendable {
    /// The control.
    public var control: DeviceControl
    /// The value to write.
    public var value: Int64
    /// Whether the value was clamped to the control's range (zoom controls are clamped rather than
    /// refused: a zoom kept across a camera switch may exceed the new camera's range).
    public var clamped: Bool

    /// Creates a resolution.
    public init(control: DeviceControl, value: Int64, clamped: Bool) {
        self.control = control
        self.value = value
        self.clamped = clamped
    }
}

extension ControlSetting {
    /// Finds the control this setting names among `controls` and the number to write, validated
    /// against the control's range, step and menu.
    ///
    /// - Returns: the resolution, or a one-line reason naming the control and what it accepts, such
    ///   as `brightness must be 0 to 255 (step 1), not 300`.
    public func resolve(against controls: [DeviceControl]) -> Result<ControlResolution, ControlSettingError> {
        guard let control = find(in: controls) else {
            let names = controls.filter { $0.type != .controlClass }.map(\.identifier)
            return .failure(.unknownControl(setting: description, available: names))
        }
        if control.flags.contains(.readOnly) { return .failure(.readOnly(control: control.identifier)) }
        let isZoom = control.identifier.hasPrefix("zoom_")
        let range = "\(control.minimum) to \(control.maximum)" + (control.step > 1 ? " (step \(control.step))" : "")
        var number: Int64
        switch (value, control.type) {
        case (.word(let word), .boolean):
            switch word.lowercased() {
            case "on", "true", "yes": number = 1
            case "off", "false", "no": number = 0
            default: return .failure(.invalidValue(control: control.identifier, value: word, accepted: "on or off"))
            }
        case (.word(let word), .menu), (.word(let word), .integerMenu):
            let matches = Self.menuMatches(word, in: control.menuItems)
            guard matches.count == 1, let item = matches.first else {
                let items = control.menuItems.map { $0.name ?? $0.value.map(String.init) ?? "\($0.index)" }
                return .failure(
                    .invalidValue(
                        control: control.identifier, value: word,
                        accepted: matches.isEmpty
                            ? items.joined(separator: ", ")
                            : "one of (ambiguous) " + matches.map { $0.name ?? "" }.joined(separator: ", ")))
            }
            number = Int64(item.index)
        case (.word(let word), _):
            return .failure(
                .invalidValue(
                    control: control.identifier, value: word, accepted: "a number from \(range), or a percentage"))
        case (.percent(let percent), _):
            guard (0...100).contains(percent) else {
                return .failure(
                    .invalidValue(control: control.identifier, value: "\(percent)%", accepted: "0% to 100%"))
            }
            let span = Double(control.maximum - control.minimum)
            let step = Double(max(control.step, 1))
            number = control.minimum + Int64((span * percent / 100 / step).rounded() * step)
        case (.integer(let value), .menu):
            guard control.menuItems.contains(where: { Int64($0.index) == value }) else {
                let items = control.menuItems.map { "\($0.index) (\($0.name ?? ""))" }
                return .failure(
                    .invalidValue(
                        control: control.identifier, value: "\(value)", accepted: items.joined(separator: ", ")))
            }
            number = value
        case (.integer(let value), .integerMenu):
            // An integer menu is set by its item's value, as users see it ("5"), or by index.
            if let item = control.menuItems.first(where: { $0.value == value }) {
                number = Int64(item.index)
            } else if control.menuItems.contains(where: { Int64($0.index) == value }) {
                number = value
            } else {
                let values = control.menuItems.compactMap(\.value).map(String.init)
                return .failure(
                    .invalidValue(
                        control: control.identifier, value: "\(value)", accepted: values.joined(separator: ", ")))
            }
        case (.integer(let value), _):
            number = value
        }
        var clamped = false
        if control.type != .menu && control.type != .integerMenu && control.type != .button {
            if number < control.minimum || number > control.maximum {
                guard isZoom else {
                    return .failure(.outOfRange(control: control.identifier, value: number, range: range))
                }
                number = min(max(number, control.minimum), control.maximum)
                clamped = true
            }
            if control.step > 1 && (number - control.minimum) % Int64(control.step) != 0 {
                guard isZoom else {
                    return .failure(.outOfRange(control: control.identifier, value: number, range: range))
                }
                number = control.minimum + (number - control.minimum) / Int64(control.step) * Int64(control.step)
                clamped = true
            }
        }
        return .success(ControlResolution(control: control, value: number, clamped: clamped))
    }

    private func find(in controls: [DeviceControl]) -> DeviceControl? {
        switch target {
        case .id(let id):
            return controls.first { $0.id == id }
        case .name(let name):
            let wanted = name.lowercased()
            if let found = controls.first(where: { $0.identifier == wanted || $0.name.lowercased() == wanted }) {
                return found
            }
            // Linux 5.x renamed several UVC controls; guides and scripts still use the old names.
            guard let alias = Self.renamedControls[wanted] else { return nil }
            return controls.first { $0.identifier == alias }
        }
    }

    /// Old v4l2-ctl names and the names current kernels give the same controls, both ways.
    static let renamedControls: [String: String] = {
        let pairs = [
            ("exposure_auto", "auto_exposure"), ("exposure_absolute", "exposure_time_absolute"),
            ("white_balance_temperature_auto", "white_balance_automatic"), ("focus_auto", "focus_automatic_continuous"),
        ]
        return Dictionary(uniqueKeysWithValues: pairs + pairs.map { ($0.1, $0.0) })
    }()

    /// Menu items a word names: its exact name, its identifier, or the one item whose identifier
    /// starts with it (`manual` for "Manual Mode").
    private static func menuMatches(_ word: String, in items: [MenuItem]) -> [MenuItem] {
        let wanted = word.lowercased()
        let identifier = DeviceControl(
            id: 0, name: word, type: .menu, minimum: 0, maximum: 0, step: 0, defaultValue: 0, value: nil, flags: []
        ).identifier
        func itemIdentifier(_ item: MenuItem) -> String {
            DeviceControl(
                id: 0, name: item.name ?? item.value.map(String.init) ?? "", type: .menu, minimum: 0, maximum: 0,
                step: 0, defaultValue: 0, value: nil, flags: []
            ).identifier
        }
        let exact = items.filter { ($0.name?.lowercased() == wanted) || itemIdentifier($0) == identifier }
        if !exact.isEmpty { return exact }
        return items.filter { itemIdentifier($0).hasPrefix(identifier) }
    }
}
