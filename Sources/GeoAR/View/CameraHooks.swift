import CaptureKit

/// How a camera view makes its capture session and settles authorization: real V4L2 devices,
/// unless a test gives the scripted fake device's.
struct CameraHooks: Sendable {
    /// Makes the session.
    var makeSession: @Sendable () -> CaptureSession = { CaptureSession() }
    /// The node's authorization now.
    var authorize: @Sendable (String) -> Authorization = { CaptureDevice.authorization(for: $0) }
    /// Waits for an absent node (a camera being plugged in) until it is authorized or the time is up.
    var requestAccess: @Sendable (String, Duration) async -> Bool = { path, timeout in
        await CaptureDevice.requestAccess(for: path, timeout: timeout)
    }
}
