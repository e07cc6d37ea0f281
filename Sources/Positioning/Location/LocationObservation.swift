import ArcaptureCore

/// A registration of an observer with a location or pose source; ``cancel()`` removes it.
///
/// Cancelling twice is harmless. Dropping the token does not cancel: observers compose and stay
/// until removed, as the session's observers do.
public final class LocationObservation: Sendable {
    private let cancellation: Locked<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) { cancellation = Locked(cancel) }

    /// Stops the observer from receiving events.
    public func cancel() {
        let body = cancellation.withLock { body in
            defer { body = nil }
            return body
        }
        body?()
    }
}
