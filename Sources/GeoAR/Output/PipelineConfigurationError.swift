/// A pipeline asked for something that cannot work (an output kind that contradicts its name, a
/// template that would give every frame the same name): found before any frame is read.
public struct PipelineConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and how to put it right, in the command line's words (`--format jpeg needs a
    /// name with a counter, like frames/%05n.jpg`).
    public let description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}
