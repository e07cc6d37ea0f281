/// A subcommand's command line after parsing: option values by name, flags, positionals.
struct ParsedArguments: Equatable, Sendable {
    /// Values of options that take one, by long name; the last occurrence wins for single values.
    var values: [String: [String]] = [:]
    /// Flags that were given, by long name.
    var flags: Set<String> = []
    /// Arguments that are not options, in order.
    var positionals: [String] = []

    /// The last value given for `name`.
    func value(_ name: String) -> String? { values[name]?.last }

    /// Whether flag `name` was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Those of `names` that were given (as options with a value or as flags), in `names`' order.
    func given(_ names: [String]) -> [String] {
        names.filter { values[$0] != nil || flags.contains($0) }
    }

    /// Parses an integer option within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// Parses a number option within `range`.
    func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw UsageError(
                "--\(name) must be a number from \(formatted(range.lowerBound)) to \(formatted(range.upperBound)), not '\(text)'"
            )
        }
        return number
    }

    private func formatted(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
