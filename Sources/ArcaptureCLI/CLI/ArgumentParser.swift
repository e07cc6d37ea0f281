/// Parses a subcommand's arguments against its ``CommandSpec``.
///
/// Hand-written because Glibc's `getopt_long` keeps its state in globals (`optarg`, `optind`) that
/// Swift 6's strict concurrency rejects, and no outside package may be fetched. It follows
/// swift-argument-parser's conventions: `--name value` and `--name=value`, `--` ends options, and an
/// unknown option suggests the nearest known one.
enum ArgumentParser {
    /// Whether the arguments ask for help anywhere (help wins over every other error).
    static func wantsHelp(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "-h" || argument == "--help" { return true }
        }
        return false
    }

    /// Parses `arguments` (the words after the subcommand).
    ///
    /// - Throws: ``UsageError`` naming the bad word and, for a misspelt option, the nearest one.
    static func parse(_ arguments: [String], spec: CommandSpec, maxPositionals: Int = 0) throws(UsageError)
        -> ParsedArguments
    {
        var parsed = ParsedArguments(declared: spec.options.map(\.name))
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || !word.hasPrefix("-") || word == "-" {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = split(word)
            guard let option = find(name, in: spec) else {
                throw UsageError(unknownOptionMessage(word, name: name, spec: spec))
            }
            if option.valueName == nil {
                if inlineValue != nil { throw UsageError("--\(option.name) does not take a value") }
                parsed.insert(flag: option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("--\(option.name) needs a value (\(option.valueName ?? "VALUE"))")
            }
            parsed.append(value, for: option.name)
        }
        if parsed.positionals.count > maxPositionals {
            let extra = parsed.positionals[maxPositionals]
            throw UsageError("unexpected argument '\(extra)'")
        }
        return parsed
    }

    private static func split(_ word: String) -> (name: String, value: String?) {
        if word.hasPrefix("--") {
            let body = word.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                return (String(body[..<equals]), String(body[body.index(after: equals)...]))
            }
            return (String(body), nil)
        }
        return (String(word.dropFirst()), nil)
    }

    private static func find(_ name: String, in spec: CommandSpec) -> OptionSpec? {
        spec.allOptions.first { $0.name == name || ($0.short.map { String($0) } == name) }
    }

    private static func unknownOptionMessage(_ word: String, name: String, spec: CommandSpec) -> String {
        let names = spec.allOptions.map(\.name)
        let nearest = names.map { ($0, EditDistance.between(name, $0)) }.min { $0.1 < $1.1 }
        if let nearest, nearest.1 <= max(2, name.count / 3) {
            return "unknown option '\(word)' (did you mean '--\(nearest.0)'?)"
        }
        return "unknown option '\(word)' (see 'arcapture \(spec.name) --help')"
    }
}
