/// An option that takes a value, declared once: its name, placeholder, help and default (which
/// `--help` shows from this same declaration), and how its text is read into a `Value`, with the
/// message a bad value gets. Commands read it with ``ParsedArguments/value(_:)``, so a misspelt
/// option is a compile error, not an option that silently reads nil.
struct Option<Value: Sendable>: Sendable {
    /// What `--help` and the parser know of it.
    private(set) var spec: OptionSpec
    private let reader: @Sendable (String) throws(UsageError) -> Value

    /// The long name without dashes.
    var name: String { spec.name }

    /// Declares an option read by `read`; `defaultText` is what `--help` says of the default (the
    /// default value's words, or what happens without the option: `one per core`).
    init(
        _ name: String, _ placeholder: String, defaultText: String? = nil, help: String,
        read: @escaping @Sendable (String) throws(UsageError) -> Value
    ) {
        spec = .value(name, placeholder, default: defaultText, help: help)
        reader = read
    }

    /// The same option (the same name, value and reading) with other words in `--help`, for a
    /// command whose context says it differently.
    /// `defaultText` replaces what `--help` says of the default; `showsDefault: false` says nothing.
    func described(_ help: String, defaultText: String? = nil, showsDefault: Bool = true) -> Option {
        var copy = self
        copy.spec = OptionSpec(
            name: spec.name, short: spec.short, valueName: spec.valueName, help: help,
            defaultValue: showsDefault ? defaultText ?? spec.defaultValue : nil)
        return copy
    }

    /// `text` read as this option's value.
    ///
    /// - Throws: ``UsageError`` naming the option and the value.
    func read(_ text: String) throws(UsageError) -> Value { try reader(text) }
}

/// An option with a default: reading it always gives a value, the one given or the default its
/// declaration names (which `--help` shows), so the default is written once.
struct DefaultedOption<Value: Sendable>: Sendable {
    /// The option.
    let option: Option<Value>
    /// Its value when not given.
    let defaultValue: Value

    /// What `--help` and the parser know of it.
    var spec: OptionSpec { option.spec }
    /// The long name without dashes.
    var name: String { option.name }

    /// The same option with other words in `--help`.
    func described(_ help: String) -> DefaultedOption {
        DefaultedOption(option: option.described(help), defaultValue: defaultValue)
    }
}

extension Option {
    /// This option with `value` as its default.
    func defaulting(to value: Value) -> DefaultedOption<Value> {
        DefaultedOption(option: self, defaultValue: value)
    }
}

extension Option where Value == String {
    /// An option whose value is its text.
    static func text(_ name: String, _ placeholder: String, defaultText: String? = nil, help: String) -> Option<String>
    {
        Option(name, placeholder, defaultText: defaultText, help: help) { $0 }
    }

    /// An option whose value is its text, `defaultValue` when not given.
    static func text(_ name: String, _ placeholder: String, default defaultValue: String, help: String)
        -> DefaultedOption<String>
    {
        text(name, placeholder, defaultText: defaultValue, help: help).defaulting(to: defaultValue)
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    static func integer(
        _ name: String, _ placeholder: String, in range: ClosedRange<Int>, defaultText: String? = nil, help: String
    ) -> Option<Int> {
        Option(name, placeholder, defaultText: defaultText, help: help) {
            text throws(UsageError) in
            guard let number = Int(text), range.contains(number) else {
                throw UsageError(
                    "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            return number
        }
    }

    /// A whole number within `range`, `defaultValue` when not given.
    static func integer(
        _ name: String, _ placeholder: String, in range: ClosedRange<Int>, default defaultValue: Int, help: String
    ) -> DefaultedOption<Int> {
        integer(name, placeholder, in: range, defaultText: "\(defaultValue)", help: help).defaulting(to: defaultValue)
    }
}

extension Option where Value == Double {
    /// A finite number within `range`.
    static func number(
        _ name: String, _ placeholder: String, in range: ClosedRange<Double>, defaultText: String? = nil, help: String
    ) -> Option<Double> {
        Option(name, placeholder, defaultText: defaultText, help: help) { text throws(UsageError) in
            guard let number = Double(text), number.isFinite, range.contains(number) else {
                throw UsageError(
                    "--\(name) must be a number from \(words(range.lowerBound)) to \(words(range.upperBound)), not '\(text)'"
                )
            }
            return number
        }
    }

    /// A finite number within `range`, `defaultValue` when not given.
    static func number(
        _ name: String, _ placeholder: String, in range: ClosedRange<Double>, default defaultValue: Double,
        help: String
    ) -> DefaultedOption<Double> {
        number(name, placeholder, in: range, defaultText: words(defaultValue), help: help).defaulting(to: defaultValue)
    }

    /// `30` for 30.0, `0.5` for 0.5.
    static func words(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// A flag, declared once: present or absent.
struct Flag: Sendable {
    /// What `--help` and the parser know of it.
    private(set) var spec: OptionSpec

    /// The long name without dashes.
    var name: String { spec.name }

    /// Declares a flag.
    init(_ name: String, short: Character? = nil, help: String) {
        spec = .flag(name, short: short, help: help)
    }
}

extension Flag {
    /// The same flag with other words in `--help`.
    func described(_ help: String) -> Flag {
        var copy = self
        copy.spec = OptionSpec(name: spec.name, short: spec.short, valueName: nil, help: help, defaultValue: nil)
        return copy
    }
}
