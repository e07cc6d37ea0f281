/// A client of a ``FrameBroadcast`` that has sent its newest frame and waits for the next.
///
/// The broadcast calls ``suspend()`` under its lock when the client asks for a frame it does not
/// have yet, and ``resume()`` once, outside the lock, when the next frame is published or the
/// broadcast closes: so a frame published between the ask and the suspension is never missed.
package protocol BroadcastWaiter: AnyObject, Sendable {
    /// Stops the client's connection being served until ``resume()``.
    func suspend()
    /// Serves the client's connection again.
    func resume()
}
