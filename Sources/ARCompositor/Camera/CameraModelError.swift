/// Why a camera model cannot be built or used.
public enum CameraModelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A calibration made at one aspect ratio cannot describe frames of another.
    case aspectRatioMismatch(from: String, to: String)

    /// One line, such as `the calibration is for 640x480 and cannot be scaled to 1280x720 (another aspect ratio)`.
    public var description: String {
        switch self {
        case .aspectRatioMismatch(let from, let to):
            "the calibration is for \(from) and cannot be scaled to \(to) (another aspect ratio): calibrate at this size"
        }
    }
}
