import CaptureKit

/// How a camera view makes its capture session and settles authorization: real V4L2 devices,
/// unless a test or a benchmark gives the scripted fake device's (the testing seam,
/// `@_spi(Testing)`).
@_spi(Testing) public struct CameraHooks: Sendable {
    /// Makes the session.
    public var makeSession: @Sendable () -> CaptureSession
    /// The node's authorization now.
    public var authorize: @Sendable (String) -> Authorization
    /// Waits for an absent node (a camera being plugged in) until it is authorized or the time is up.
    public var requestAccess: @Sendable (String, Duration) async -> Bool

    /// Hooks; each defaults to the real device's.
    public init(
        makeSession: @escaping @Sendable () -> CaptureSession = { CaptureSession() },
        authorize: @escaping @Sendable (String) -> Authorization = { CaptureDevice.authorization(for: $0) },
        requestAccess: @escaping @Sendable (String, Duration) async -> Bool = { path, timeout in
            await CaptureDevice.requestAccess(for: path, timeout: timeout)
        }
    ) {
        self.makeSession = makeSession
        self.authorize = authorize
        self.requestAccess = requestAccess
    }
}
