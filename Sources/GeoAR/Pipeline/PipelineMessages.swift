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

    /// Creates the destinations.
    public init(
        note: @escaping @Sendable (String) -> Void, warning: @escaping @Sendable (String) -> Void,
        fileWritten: @escaping @Sendable (String) -> Void
    ) {
        self.note = note
        self.warning = warning
        self.fileWritten = fileWritten
    }

    /// Messages that go nowhere.
    public static let silent = PipelineMessages(note: { _ in }, warning: { _ in }, fileWritten: { _ in })
}
