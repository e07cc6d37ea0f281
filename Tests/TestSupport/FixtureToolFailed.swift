/// A program that makes a test's fixture (ffmpeg, ffprobe) failed, with what it said.
public struct FixtureToolFailed: Error, CustomStringConvertible {
    /// What went wrong.
    public var problem: String

    /// A failure.
    public init(_ problem: String) { self.problem = problem }

    /// The problem.
    public var description: String { problem }
}
