extension CaptureError {
    /// The busy error for `path`, naming the other processes that hold the node (found through
    /// /proc). The calling process is left out: whoever asks holds the node open while it looks.
    static func busy(path: String) -> CaptureError {
        let found = ProcessHolder.holders(ofDeviceAt: path)
        return .deviceBusy(
            path: path, holders: found.holders.filter { !$0.isCurrentProcess }, uninspectedProcesses: found.uninspected)
    }
}
