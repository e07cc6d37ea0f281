/// A ``CaptureSession``'s lifecycle as a pure value: each event returns the actions the session
/// must perform, so every transition can be tested without a device or a queue.
///
/// Streaming needs three things: the caller wants it running, a location source is assigned, and
/// the stream opened. Stop is idempotent; a failure stops the session until it is started again,
/// unless it is an interruption (the camera went away or stopped sending) and the session
/// reconnects: then it waits for the camera and resumes by itself.
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
        /// Wait (off the queue) for the camera to come back, no sooner than `after`; then report
        /// ``deviceReturned()``.
        case waitForDevice(after: Duration)
        /// Stop waiting for the camera.
        case cancelWait
    }

    private(set) var wantsRunning = false
    private(set) var hasLocationSource = false
    private(set) var isStreaming = false
    private(set) var phase: CapturePhase = .idle
    /// Whether an interruption waits for the camera instead of failing (``CaptureConfiguration/reconnects``).
    var reconnects = false
    private(set) var isWaitingForDevice = false
    /// Whether the stream being opened is a reopening after an interruption.
    private var isReopening = false
    /// Reopenings in a row that failed to start the stream (see ``streamFailed(_:)``).
    private(set) var failedReopens = 0
    /// Whether the location source has a position (or needs none): until it has, a streaming
    /// session is ``CapturePhase/waitingForLocation(_:)``.
    private(set) var hasPosition = false

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
        return closeIfStreaming() + stopWaiting() + move(to: .idle)
    }

    /// A location source was assigned; `hasPosition` is whether it has a position already.
    /// Replacing one source with another keeps streaming; frames carry the new source's status.
    mutating func locationSourceAssigned(hasPosition: Bool) -> [Action] {
        guard !hasLocationSource else { return locationStatusChanged(hasPosition: hasPosition) }
        self.hasPosition = hasPosition
        hasLocationSource = true
        guard wantsRunning else { return [] }
        return move(to: .starting) + [.openStream]
    }

    /// The location source was removed: capture stops and waits for another.
    mutating func locationSourceRemoved() -> [Action] {
        guard hasLocationSource else { return [] }
        hasLocationSource = false
        guard wantsRunning else { return [] }
        return closeIfStreaming() + stopWaiting() + move(to: .waitingForLocationSource)
    }

    /// The location source's status changed: the first position moves a streaming session from
    /// waiting to running. Losing the fix later does not stop anything (frames say so one by one).
    mutating func locationStatusChanged(hasPosition: Bool) -> [Action] {
        guard hasPosition != self.hasPosition else { return [] }
        self.hasPosition = hasPosition
        guard hasPosition, case .waitingForLocation(let format) = phase else { return [] }
        return move(to: .running(format))
    }

    /// The configuration changed: a running stream reopens with it.
    mutating func configurationChanged() -> [Action] {
        guard isStreaming else { return [] }
        isStreaming = false
        return [.closeStream] + move(to: .starting) + [.openStream]
    }

    /// The stream opened with `format`.
    mutating func streamOpened(_ format: NegotiatedFormat) -> [Action] {
        isReopening = false
        failedReopens = 0
        guard wantsRunning, hasLocationSource else { return [.closeStream] }
        isStreaming = true
        return move(to: hasPosition ? .running(format) : .waitingForLocation(format))
    }

    /// Opening or running the stream failed. An interruption with reconnection on waits for the
    /// camera; so does a camera that came back but failed to start streaming (a USB camera just
    /// re-enumerated may refuse its first VIDIOC_STREAMON), after 0.5 s, doubling to 8 s while it
    /// keeps failing. Anything else stops the session.
    mutating func streamFailed(_ error: CaptureError) -> [Action] {
        let failedToStart: Bool
        if case .streamingFailed = error { failedToStart = isReopening } else { failedToStart = false }
        isReopening = false
        if reconnects && wantsRunning && (error.isInterruption || failedToStart) {
            var delay = Duration.zero
            if failedToStart {
                failedReopens += 1
                delay = .milliseconds(500 * (1 << min(failedReopens - 1, 4)))
            }
            isWaitingForDevice = true
            return closeIfStreaming() + move(to: .interrupted(error)) + [.waitForDevice(after: delay)]
        }
        wantsRunning = false
        return closeIfStreaming() + move(to: .failed(error))
    }

    /// The camera is back after an interruption: open it again.
    mutating func deviceReturned() -> [Action] {
        guard isWaitingForDevice else { return [] }
        isWaitingForDevice = false
        guard wantsRunning, hasLocationSource else { return [] }
        isReopening = true
        return move(to: .starting) + [.openStream]
    }

    private mutating func stopWaiting() -> [Action] {
        guard isWaitingForDevice else { return [] }
        isWaitingForDevice = false
        return [.cancelWait]
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
