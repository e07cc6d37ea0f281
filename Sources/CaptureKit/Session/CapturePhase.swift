/// Where a ``CaptureSession`` is in its life, reported to phase observers on every change.
public enum CapturePhase: Hashable, Sendable, CustomStringConvertible {
    /// Not running: never started, or stopped.
    case idle
    /// Started, but no location source is assigned, so the camera stays closed. Capture starts as
    /// soon as one is assigned (the geo-AR rule: capture follows the location source, not the view).
    case waitingForLocationSource
    /// Opening the device and negotiating the format.
    case starting
    /// Streaming with this format, but the location source has no position yet (no fix, or gpsd not
    /// reachable): frames are delivered, marked as having no position (``VideoFrame/locationStatus``),
    /// until the first fix moves the session to ``running(_:)``.
    case waitingForLocation(NegotiatedFormat)
    /// Streaming with this format, with positions (or with `NoPositionSource`, which needs none).
    case running(NegotiatedFormat)
    /// The camera went away or stopped sending, and the session waits for it to come back (only
    /// with ``CaptureConfiguration/reconnects``); it resumes through ``starting``.
    case interrupted(CaptureError)
    /// Stopped by an error; ``CaptureSession/startRunning()`` tries again.
    case failed(CaptureError)

    /// A short name: `idle`, `waiting-for-location-source`, `starting`, `waiting-for-location`,
    /// `running`, `interrupted`, `failed`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .waitingForLocationSource: "waiting-for-location-source"
        case .starting: "starting"
        case .waitingForLocation: "waiting-for-location"
        case .running: "running"
        case .interrupted: "interrupted"
        case .failed: "failed"
        }
    }
}
