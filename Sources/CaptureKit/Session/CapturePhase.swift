/// Where a ``CaptureSession`` is in its life, reported to phase observers on every change.
public enum CapturePhase: Hashable, Sendable, CustomStringConvertible {
    /// Not running: never started, or stopped.
    case idle
    /// Started, but no location source is assigned, so the camera stays closed. Capture starts as
    /// soon as one is assigned (the geo-AR rule: capture follows the location source, not the view).
    case waitingForLocationSource
    /// Opening the device and negotiating the format.
    case starting
    /// Streaming with this format.
    case running(NegotiatedFormat)
    /// The camera went away or stopped sending, and the session waits for it to come back (only
    /// with ``CaptureConfiguration/reconnects``); it resumes through ``starting``.
    case interrupted(CaptureError)
    /// Stopped by an error; ``CaptureSession/startRunning()`` tries again.
    case failed(CaptureError)

    /// A short name: `idle`, `waiting-for-location-source`, `starting`, `running`, `interrupted`,
    /// `failed`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .waitingForLocationSource: "waiting-for-location-source"
        case .starting: "starting"
        case .running: "running"
        case .interrupted: "interrupted"
        case .failed: "failed"
        }
    }
}
