/// Where a ``GeoARView`` is, from loading its session's map data to stopping: every transition is
/// reported to ``GeoARView/onPhaseChange(_:)`` handlers, in order.
public enum LoadPhase: Sendable, Equatable, CustomStringConvertible {
    /// The session's map data (POIs, route, style) is being read.
    case loadingMapData
    /// Camera authorization is being settled (a camera that is not plugged in yet is waited for).
    case waitingForCameraAuthorization
    /// Ready, but no location source is assigned: the camera stays closed until one is.
    case waitingForLocationSource
    /// The camera is being opened and its format negotiated (or the footage opened).
    case startingCamera
    /// Frames flow, but the location source has no position yet: they pass through unannotated.
    case waitingForFix
    /// Frames are annotated: a camera with a fix, or footage being read.
    case running
    /// The camera went away or stopped sending, or the position was lost; the view waits for it
    /// to come back and says why.
    case interrupted(String)
    /// Stopped: by ``GeoARView/stop()``, by removing the location source, or at the end of footage.
    case stopped
    /// Stopped by an error (also delivered to ``GeoARView/onFailed(_:)``).
    case failed(GeoARError)

    /// `loading map data`, `running`, `interrupted: …`, and so on.
    public var description: String {
        switch self {
        case .loadingMapData: "loading map data"
        case .waitingForCameraAuthorization: "waiting for camera authorization"
        case .waitingForLocationSource: "waiting for a location source"
        case .startingCamera: "starting the camera"
        case .waitingForFix: "waiting for a location fix"
        case .running: "running"
        case .interrupted(let why): "interrupted: \(why)"
        case .stopped: "stopped"
        case .failed(let error): "failed: \(error)"
        }
    }
}
