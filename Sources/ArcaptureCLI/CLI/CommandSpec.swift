/// What a subcommand is called, what it does and what it accepts: the source of its `--help` and of
/// the parser's rules.
struct CommandSpec: Sendable {
    /// The subcommand's name, such as `check`.
    let name: String
    /// One paragraph for the OVERVIEW section.
    let overview: String
    /// The USAGE line after `arcapture NAME`.
    let usage: String
    /// Positional arguments with their help, for the ARGUMENTS section.
    let arguments: [(name: String, help: String)]
    /// The options, in the order `--help` lists them (`--help` itself is added).
    let options: [OptionSpec]
    /// Extra text after the options: exit statuses, examples.
    let discussion: String?

    /// The options plus `-h, --help`.
    var allOptions: [OptionSpec] {
        options + [.flag("help", short: "h", help: "Show this help and exit.")]
    }

    /// The full `--help` text.
    var helpText: String {
        var text = "OVERVIEW: \(overview)\n\nUSAGE: arcapture \(name) \(usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments { text += HelpLayout.entry(argument.name, argument.help) }
        }
        text += "\nOPTIONS:\n"
        for option in allOptions {
            let help = option.help + (option.defaultValue.map { " (default: \($0))" } ?? "")
            text += HelpLayout.entry(option.synopsis, help)
        }
        if let discussion { text += "\n" + discussion + "\n" }
        return text
    }
}

/// Lays out `--help` entries: the name in a left column, wrapped help text beside or below it.
enum HelpLayout {
    static let nameWidth = 26
    static let lineWidth = 100

    static func entry(_ name: String, _ help: String) -> String {
        let indent = String(repeating: " ", count: nameWidth + 2)
        let lines = wrap(help, width: lineWidth - indent.count)
        var text = "  " + name
        if name.count + 2 < nameWidth + 2 {
            text += String(repeating: " ", count: nameWidth - name.count) + (lines.first ?? "") + "\n"
        } else {
            text += "\n" + indent + (lines.first ?? "") + "\n"
        }
        for line in lines.dropFirst() { text += indent + line + "\n" }
        return text
    }

    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && current.count + 1 + word.count > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}
