/// A ``CaptureSession``'s lifecycle as a pure value: each event returns the actions the session
/// must perform, so every transition can be tested without a device or a queue.
///
/// Streaming needs three things: the caller wants it running, a location source is assigned, and
/// the stream opened. Stop is idempotent; a failure stops the session until it is started again.
struct CaptureStateMachine: Hashable, Sendable {
    /// Work for the session to do, in order.
    enum Action: Hashable, Sendable {
        /// Open the device, negotiate and start streaming; then report ``streamOpened(_:)`` or
        /// ``streamFailed(_:)``.
        case openStream
        /// Stop streaming and release everything.
        case closeStream
        /// Tell phase observers.
        case publish(CapturePhase)
    }

    private(set) var wantsRunning = false
    private(set) var hasLocationSource = false
    private(set) var isStreaming = false
    private(set) var phase: CapturePhase = .idle

    /// `startRunning()`: streams now if a location source is assigned, else waits for one.
    mutating func startRunning() -> [Action] {
        guard !wantsRunning else { return [] }
        wantsRunning = true
        return hasLocationSource ? move(to: .starting) + [.openStream] : move(to: .waitingForLocationSource)
    }

    /// `stopRunning()`: releases the stream if open.
    mutating func stopRunning() -> [Action] {
        guard wantsRunning || phase != .idle else { return [] }
        wantsRunning = false
        return closeIfStreaming() + move(to: .idle)
    }

    /// A location source was assigned (replacing one with another changes nothing).
    mutating func locationSourceAssigned() -> [Action] {
        guard !hasLocationSource else { return [] }
        hasLocationSource = true
        guard wantsRunning else { return [] }
        return move(to: .starting) + [.openStream]
    }

    /// The location source was removed: capture stops and waits for another.
    mutating func locationSourceRemoved() -> [Action] {
        guard hasLocationSource else { return [] }
        hasLocationSource = false
        guard wantsRunning else { return [] }
        return closeIfStreaming() + move(to: .waitingForLocationSource)
    }

    /// The configuration changed: a running stream reopens with it.
    mutating func configurationChanged() -> [Action] {
        guard isStreaming else { return [] }
        isStreaming = false
        return [.closeStream] + move(to: .starting) + [.openStream]
    }

    /// The stream opened with `format`.
    mutating func streamOpened(_ format: NegotiatedFormat) -> [Action] {
        guard wantsRunning, hasLocationSource else { return [.closeStream] }
        isStreaming = true
        return move(to: .running(format))
    }

    /// Opening or running the stream failed.
    mutating func streamFailed(_ error: CaptureError) -> [Action] {
        wantsRunning = false
        return closeIfStreaming() + move(to: .failed(error))
    }

    private mutating func closeIfStreaming() -> [Action] {
        guard isStreaming else { return [] }
        isStreaming = false
        return [.closeStream]
    }

    private mutating func move(to next: CapturePhase) -> [Action] {
        guard next != phase else { return [] }
        phase = next
        return [.publish(next)]
    }
}
