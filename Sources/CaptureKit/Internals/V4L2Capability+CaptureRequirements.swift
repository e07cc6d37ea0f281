extension V4L2Capability {
    /// Why a node with this capability cannot be used by a ``CaptureSession``, or nil when it can:
    /// it must capture video, through the single-planar API, with streaming I/O. The authorization
    /// probe and the session both ask this, so they never disagree.
    func captureProblem(path: String) -> CaptureError? {
        if !isVideoCapture { return .notACaptureDevice(path: path, capabilities: nodeCapabilities.names) }
        if isMultiplanarOnly { return .multiplanarUnsupported(path: path) }
        if !nodeCapabilities.contains(.streaming) { return .streamingUnsupported(path: path) }
        return nil
    }
}
