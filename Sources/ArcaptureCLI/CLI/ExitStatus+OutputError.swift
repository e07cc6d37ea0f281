import GeoAR

extension ExitStatus {
    /// The status for an output that could not be written: 73 when it could not be created (it
    /// exists, the directory is not writable), 74 when writing failed (a full disk).
    init(_ error: OutputError) {
        self = error.kind == .create ? .cannotCreate : .ioError
    }
}
