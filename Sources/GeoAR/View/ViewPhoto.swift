import ARCompositor
import ArcaptureCore
import Foundation

/// A still taken by a camera view (``GeoARView/capturePhoto(quality:)``): the camera's next frame
/// as the view drew it, zoom and overlay included, with the pose it was drawn for. The counterpart
/// of the camera seed's `AVCapturePhotoOutput.capturePhoto`, for a view whose preview is annotated.
public struct ViewPhoto: Sendable {
    /// The JPEG file's bytes.
    public var data: [UInt8]
    /// The image size.
    public var size: FrameSize
    /// The driver's frame counter.
    public var sequence: UInt32
    /// When the camera took the frame.
    public var captureDate: Date
    /// The camera it came from.
    public var devicePath: String
    /// The pose the overlay was drawn for; nil when the frame had none (``unannotatedReason``
    /// says why) and the photo is the camera's picture alone.
    public var pose: PoseEstimate?
    /// Why nothing was drawn (no position yet, nothing in the session to draw), when nothing was.
    public var unannotatedReason: String?
    /// The digital zoom the picture was taken at (1: none).
    public var zoomFactor: Double

    /// Whether the overlay was drawn on it.
    public var isAnnotated: Bool { pose != nil }

    /// Creates a photo.
    public init(
        data: [UInt8], size: FrameSize, sequence: UInt32, captureDate: Date, devicePath: String,
        pose: PoseEstimate?, unannotatedReason: String?, zoomFactor: Double
    ) {
        self.data = data
        self.size = size
        self.sequence = sequence
        self.captureDate = captureDate
        self.devicePath = devicePath
        self.pose = pose
        self.unannotatedReason = unannotatedReason
        self.zoomFactor = zoomFactor
    }
}
