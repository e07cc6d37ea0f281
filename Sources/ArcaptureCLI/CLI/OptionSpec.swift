/// One option a subcommand accepts, with what `--help` says about it.
struct OptionSpec: Sendable {
    /// The long name without dashes, such as `frames`.
    let name: String
    /// A one-letter alias, such as `h`.
    let short: Character?
    /// The placeholder for the option's value (`N`, `PATH`), or nil for a flag.
    let valueName: String?
    /// One or two sentences for `--help`.
    let help: String
    /// The default, shown in `--help` as `(default: …)`.
    let defaultValue: String?

    /// A flag: present or absent.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, defaultValue: nil)
    }

    /// An option that takes a value.
    static func value(_ name: String, _ valueName: String, default defaultValue: String? = nil, help: String)
        -> OptionSpec
    {
        OptionSpec(name: name, short: nil, valueName: valueName, help: help, defaultValue: defaultValue)
    }

    /// `--frames N` or `-h, --help`.
    var synopsis: String {
        let long = "--\(name)" + (valueName.map { " \($0)" } ?? "")
        return short.map { "-\($0), \(long)" } ?? long
    }
}
