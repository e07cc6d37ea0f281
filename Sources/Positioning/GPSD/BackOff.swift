import ArcaptureCore

/// Reconnection delays: 0.25 s, doubling after each failure, at most 5 s; reset on success.
final class BackOff: Sendable {
    private let delay = Locked(0.25)
    static let first = 0.25
    static let limit = 5.0

    /// The delay to wait now; the next one doubles.
    func next() -> Double {
        delay.withLock { delay in
            defer { delay = min(delay * 2, Self.limit) }
            return delay
        }
    }

    /// Back to the first delay, after a connection that worked.
    func reset() { delay.withLock { $0 = Self.first } }
}
