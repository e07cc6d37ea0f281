/// What is wrong with a Y4M stream header.
public struct Y4MHeaderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The problem, such as `the header has no valid W and H`.
    public var problem: String

    /// The problem.
    public var description: String { problem }
}
