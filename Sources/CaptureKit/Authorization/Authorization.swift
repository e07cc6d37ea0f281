/// The authorization state of one device node, with the problem behind a state other than
/// ``AuthorizationStatus/authorized``.
public struct Authorization: Hashable, Sendable {
    /// The device node that was examined.
    public var path: String
    /// The state, in AVFoundation's terms.
    public var status: AuthorizationStatus
    /// What keeps the node from being used; nil when ``status`` is ``AuthorizationStatus/authorized``.
    public var problem: CaptureError?

    /// Creates an authorization record.
    public init(path: String, status: AuthorizationStatus, problem: CaptureError?) {
        self.path = path
        self.status = status
        self.problem = problem
    }

    /// One line: the problem with its fix, or that the node can be used.
    public var message: String {
        problem?.description ?? "'\(path)' can be opened for capture"
    }
}
