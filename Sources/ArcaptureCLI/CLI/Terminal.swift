import Foundation

/// Writes diagnostics to stderr and data to stdout, the CLI's two channels.
enum Terminal {
    /// Writes `text` and a newline to stdout.
    static func out(_ text: String, terminator: String = "\n") {
        FileHandle.standardOutput.write(Data((text + terminator).utf8))
    }

    /// Writes `error: message` to stderr, in the command line's terms.
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("error: \(CommandLineTerms.translate(message))\n".utf8))
    }

    /// Writes `warning: message` to stderr, in the command line's terms.
    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(CommandLineTerms.translate(message))\n".utf8))
    }

    /// Writes a plain line to stderr (progress, notes), in the command line's terms.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((CommandLineTerms.translate(message) + "\n").utf8))
    }

    /// Whether stderr is a terminal (progress is shown only then).
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
