import CaptureKit

extension ExitStatus {
    /// The status for a capture problem: each failure class has its own, so scripts can tell a
    /// missing camera (69) from a busy one (75) or a permission problem (77).
    init(_ error: CaptureError) {
        switch error {
        case .deviceNotFound, .deviceGone, .disconnected, .notAVideoDevice, .notACaptureDevice,
            .multiplanarUnsupported, .streamingUnsupported, .unsupportedFormat:
            self = .unavailable
        case .permissionDenied:
            self = .noPermission
        case .deviceBusy:
            self = .temporaryFailure
        case .timeout, .streamingFailed:
            self = .ioError
        case .invalidConfiguration:
            self = .usage
        case .controlFailed(_, .rejected):
            self = .ioError
        case .controlFailed:
            self = .usage
        }
    }
}
