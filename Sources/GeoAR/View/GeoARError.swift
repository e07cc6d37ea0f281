import ARCompositor
import ArcaptureCore
import CaptureKit

/// Why a ``GeoARView`` failed, as ``GeoARView/onFailed(_:)`` and ``LoadPhase/failed(_:)`` give it.
public enum GeoARError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The session's map data could not be loaded: the file, the line or feature, and the field.
    case mapData(InputFileError)
    /// The camera may not be used (denied, busy, not a capture device): the fix is in the message.
    case cameraUnauthorized(AuthorizationStatus, String)
    /// The camera failed while starting or streaming.
    case camera(CaptureError)
    /// The footage could not be read.
    case footage(InputFileError)
    /// An output could not be created or written.
    case output(OutputError)
    /// Writing frames failed (a full disk, a numbered file that exists): what happened, and
    /// whether a file could not be created rather than written.
    case writeFailed(String, cannotCreate: Bool)
    /// The view cannot work as configured (a font that cannot be opened, a calibration that does
    /// not fit the frames).
    case configuration(String)

    /// One line for the user.
    public var description: String {
        switch self {
        case .mapData(let error): error.description
        case .cameraUnauthorized(_, let message): message
        case .camera(let error): error.description
        case .footage(let error): error.description
        case .output(let error): error.description
        case .writeFailed(let message, _): message
        case .configuration(let message): message
        }
    }

    /// Two errors are equal when they say the same.
    public static func == (lhs: GeoARError, rhs: GeoARError) -> Bool { lhs.description == rhs.description }
}
