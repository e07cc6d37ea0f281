/// The process exit statuses arcapture uses: the BSD `sysexits.h` values, so scripts and CI can
/// tell a missing camera from a busy one without parsing messages.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything worked (for `check`: every check passed).
    case ok = 0
    /// A check failed, or an operation failed for a reason with no closer status.
    case failure = 1
    /// The command line is wrong.
    case usage = 64
    /// Input data is malformed.
    case dataError = 65
    /// An input file is missing.
    case noInput = 66
    /// The device is missing or cannot be used for capture.
    case unavailable = 69
    /// An output file cannot be created.
    case cannotCreate = 73
    /// An input/output error, including a stream that stalls or fails.
    case ioError = 74
    /// The device is busy; trying later may work.
    case temporaryFailure = 75
    /// Permission denied.
    case noPermission = 77
    /// Interrupted by Ctrl-C (128 + SIGINT).
    case interrupted = 130
}
