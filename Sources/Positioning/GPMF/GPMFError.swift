/// Why a GPMF payload could not be read: where in it (a byte offset from its start) and what is
/// wrong, in words.
public struct GPMFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset in the payload of the item at fault.
    public var offset: Int
    /// What is wrong, such as `GPS5 says 12 samples of 20 bytes, but 180 bytes follow`.
    public var problem: String

    /// An error at `offset`.
    public init(offset: Int, problem: String) {
        self.offset = offset
        self.problem = problem
    }

    /// `byte 24: GPS5 says …`.
    public var description: String { "byte \(offset): \(problem)" }
}
