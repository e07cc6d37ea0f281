import Foundation

/// Where a pipeline's messages for people go: notes (a camera back after an unplug), warnings (a
/// damaged frame dropped, a control clamped) and the name of each file written. The command line
/// prints them; a program may log them or show them.
///
/// The closures are called on the pipeline's own queues: they should be quick.
public struct PipelineMessages: Sendable {
    /// A note: something the user may want to know.
    public var note: @Sendable (String) -> Void
    /// A warning: something went wrong and was worked around.
    public var warning: @Sendable (String) -> Void
    /// A file was written whole, with this name.
    public var fileWritten: @Sendable (String) -> Void
    /// An error in how the program uses the library (two views of one kind on a session), with
    /// the fix.
    public var error: @Sendable (String) -> Void

    /// Creates the destinations.
    public init(
        note: @escaping @Sendable (String) -> Void, warning: @escaping @Sendable (String) -> Void,
        fileWritten: @escaping @Sendable (String) -> Void,
        error: @escaping @Sendable (String) -> Void = { PipelineMessages.writeToStandardError("error: \($0)") }
    ) {
        self.note = note
        self.warning = warning
        self.fileWritten = fileWritten
        self.error = error
    }

    /// Messages that go nowhere (errors still go to stderr).
    public static let silent = PipelineMessages(note: { _ in }, warning: { _ in }, fileWritten: { _ in })

    /// Notes, warnings and errors on stderr (`warning: …`, `error: …`); file names nowhere.
    public static let standardError = PipelineMessages(
        note: { writeToStandardError($0) }, warning: { writeToStandardError("warning: \($0)") }, fileWritten: { _ in })

    /// Writes one line to stderr.
    public static func writeToStandardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
