import Foundation
import GeoAR

/// The `arcapture` command: dispatches to subcommands and answers `--help`, `help` and `--version`.
public enum Arcapture {
    /// The version `--version` prints.
    static let version = "0.1.0"

    /// The subcommands, in the order the main help lists them.
    static let commands: [(spec: CommandSpec, run: @Sendable ([String]) async -> ExitStatus)] = [
        (DevicesCommand.spec, DevicesCommand.run),
        (CheckCommand.spec, CheckCommand.run),
        (CaptureCommand.spec, CaptureCommand.run),
        (ServeCommand.spec, ServeCommand.run),
        (ProjectCommand.spec, ProjectCommand.run),
        (AnnotateCommand.spec, AnnotateCommand.run),
        (SyncCommand.spec, SyncCommand.run),
        (LocationCommand.spec, LocationCommand.run),
    ]

    static var mainHelp: String {
        var text = """
            OVERVIEW: arcapture turns a Linux V4L2 camera into a geo-AR camera, and tells you whether a \
            camera works.

            USAGE: arcapture <subcommand> [options]

            SUBCOMMANDS:

            """
        for command in commands {
            text += HelpLayout.entry(command.spec.name, firstSentence(command.spec.overview))
        }
        text += """

            OPTIONS:
              -h, --help                Show this help and exit.
              --version                 Show the version and exit.
              --generate-manual         Print the manual page, arcapture(1), in roff.
              --generate-completion-script SHELL
                                        Print completion for bash, zsh or fish.

            See 'arcapture help <subcommand>' or 'arcapture <subcommand> --help' for its options.
            """
        return text
    }

    /// Runs the command line (without the program name) and returns the exit status.
    public static func run(_ arguments: [String]) async -> ExitStatus {
        guard let first = arguments.first else {
            Terminal.note(mainHelp)
            Terminal.error("no subcommand given")
            return .usage
        }
        switch first {
        case "-h", "--help":
            Terminal.out(mainHelp)
            return .ok
        case "--version":
            Terminal.out("arcapture \(version)")
            return .ok
        case "--generate-manual":
            Terminal.out(ManualPage.roff(commands: commands.map(\.spec), version: version, date: manualDate()))
            return .ok
        case "--generate-completion-script":
            let shell = arguments.dropFirst().first ?? ""
            guard let script = CompletionScript(rawValue: shell) else {
                Terminal.error(
                    "--generate-completion-script takes bash, zsh or fish\(shell.isEmpty ? "" : ", not '\(shell)'")")
                return .usage
            }
            Terminal.out(script.script(commands: commands.map(\.spec)))
            return .ok
        case "help":
            guard arguments.count > 1 else {
                Terminal.out(mainHelp)
                return .ok
            }
            guard let command = commands.first(where: { $0.spec.name == arguments[1] }) else {
                Terminal.error("unknown subcommand '\(arguments[1])'\(suggestion(for: arguments[1]))")
                return .usage
            }
            Terminal.out(command.spec.helpText)
            return .ok
        default:
            guard let command = commands.first(where: { $0.spec.name == first }) else {
                Terminal.error("unknown subcommand '\(first)'\(suggestion(for: first)); see 'arcapture --help'")
                return .usage
            }
            let rest = Array(arguments.dropFirst())
            if ArgumentParser.wantsHelp(rest) {
                Terminal.out(command.spec.helpText)
                return .ok
            }
            let status = await command.run(rest)
            // Said once the run is over: the folders were cleaned as outputs were first written.
            let removed = TemporaryOutputName.takeRemovedLeftovers()
            if !removed.isEmpty {
                let names = removed.prefix(3).joined(separator: ", ") + (removed.count > 3 ? "…" : "")
                Terminal.note(
                    "note: removed \(removed.count) temporary file\(removed.count == 1 ? "" : "s") that a run killed "
                        + "before its end left on this host (\(names))")
            }
            return status
        }
    }

    private static func suggestion(for word: String) -> String {
        let nearest = commands.map { ($0.spec.name, EditDistance.between(word, $0.spec.name)) }.min { $0.1 < $1.1 }
        guard let nearest, nearest.1 <= 2 else { return "" }
        return " (did you mean '\(nearest.0)'?)"
    }

    /// The manual's date: `SOURCE_DATE_EPOCH`'s day when it is set (a reproducible package
    /// build), else today's, as `2026-12-02` in UTC.
    static func manualDate() -> String {
        let environment = ProcessInfo.processInfo.environment
        let seconds = environment["SOURCE_DATE_EPOCH"].flatMap(Double.init) ?? Date().timeIntervalSince1970
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSince1970: seconds))
    }

    /// The text up to its first full stop.
    static func firstSentence(_ text: String) -> String {
        guard let end = text.firstIndex(of: ".") else { return text }
        return String(text[...end])
    }
}
