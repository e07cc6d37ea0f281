/// A subcommand's command line after parsing: option values by name, flags, positionals. Read
/// through the options' declarations (``Option``, ``Flag``), never by a name typed again.
struct ParsedArguments: Equatable, Sendable {
    /// Values of options that take one, by long name; the last occurrence wins for single values.
    private(set) var values: [String: [String]] = [:]
    /// Flags that were given, by long name.
    private(set) var flags: Set<String> = []
    /// Arguments that are not options, in order.
    var positionals: [String] = []
    /// The options the command declares: reading any other is a programming error (an option
    /// read but missing from the command's spec would silently never be given), caught by the
    /// first test that runs the command.
    private let declared: Set<String>

    /// An empty command line for a command that declares `declared`.
    init(declared: [String]) {
        self.declared = Set(declared)
    }

    /// Checks that `name` is one of the command's options.
    private func assertDeclared(_ name: String) {
        assert(declared.contains(name), "--\(name) is read but not in the command's options")
    }

    /// The option's value: the last one given, read; nil when it is not given.
    ///
    /// - Throws: ``UsageError`` when the value given cannot be read.
    func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        assertDeclared(option.name)
        guard let text = values[option.name]?.last else { return nil }
        return try option.read(text)
    }

    /// The option's value: the last one given, read; else its declared default.
    ///
    /// - Throws: ``UsageError`` when the value given cannot be read.
    func value<Value>(_ option: DefaultedOption<Value>) throws(UsageError) -> Value {
        try value(option.option) ?? option.defaultValue
    }

    /// A text option's value, or its declared default.
    func text(_ option: DefaultedOption<String>) -> String {
        text(option.option) ?? option.defaultValue
    }

    /// Whether the option was given (its default not counted).
    func isGiven<Value>(_ option: DefaultedOption<Value>) -> Bool { isGiven(option.option) }

    /// A text option's value, nil when it is not given.
    func text(_ option: Option<String>) -> String? {
        assertDeclared(option.name)
        return values[option.name]?.last
    }

    /// Every value given for a repeatable option, in order.
    func texts(_ option: Option<String>) -> [String] {
        assertDeclared(option.name)
        return values[option.name] ?? []
    }

    /// Whether the option was given (its default not counted).
    func isGiven<Value>(_ option: Option<Value>) -> Bool {
        assertDeclared(option.name)
        return values[option.name] != nil
    }

    /// Whether the flag was given.
    func isSet(_ flag: Flag) -> Bool {
        assertDeclared(flag.name)
        return flags.contains(flag.name)
    }

    /// Whether the command declares the option.
    func declares(_ option: OptionSpec) -> Bool { declared.contains(option.name) }

    /// For readers shared by commands that do not all declare the option (`capture` and `serve`
    /// share `annotate`'s drawing settings but not its photo options): the value, or nil when
    /// this command does not declare it.
    ///
    /// - Throws: ``UsageError`` when the value given cannot be read.
    func valueIfDeclared<Value>(_ option: Option<Value>) throws(UsageError) -> Value? {
        declares(option.spec) ? try value(option) : nil
    }

    /// ``valueIfDeclared(_:)`` for a text option.
    func textIfDeclared(_ option: Option<String>) -> String? {
        declares(option.spec) ? text(option) : nil
    }

    /// ``valueIfDeclared(_:)`` for a flag: false when this command does not declare it.
    func isSetIfDeclared(_ flag: Flag) -> Bool {
        declares(flag.spec) && isSet(flag)
    }

    /// Records a value for `name`, as the parser does.
    mutating func append(_ value: String, for name: String) {
        values[name, default: []].append(value)
    }

    /// Records a flag, as the parser does.
    mutating func insert(flag name: String) {
        flags.insert(name)
    }

    /// Sets a text option as if the user had given it (a photo's geotag standing for --position).
    mutating func set<Value>(_ option: Option<Value>, to text: String) {
        values[option.name] = [text]
    }

    /// The names of those of `options` that were given, as options with a value or as flags, in
    /// their order.
    func given(_ options: [OptionSpec]) -> [String] {
        options.map(\.name).filter { values[$0] != nil || flags.contains($0) }
    }
}
