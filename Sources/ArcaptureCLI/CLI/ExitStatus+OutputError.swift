import GeoAR

extension ExitStatus {
    /// The status for an output that could not be written: 73 when it could not be created (it
    /// exists, the directory is not writable), 74 when writing failed (a full disk); for a virtual
    /// camera, 69 when the node is no video output, 75 when another program writes to it, 77
    /// without permission; 130 when stopped (Ctrl-C) before the output could be opened.
    init(_ error: OutputError) {
        switch error.kind {
        case .create: self = .cannotCreate
        case .write: self = .ioError
        case .unavailable: self = .unavailable
        case .busy: self = .temporaryFailure
        case .denied: self = .noPermission
        case .stopped: self = .interrupted
        }
    }
}
