/// Why ``GeoARView/capturePhoto(quality:)`` gave no photo.
public enum ViewPhotoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The view reads footage: its frames are its output files, not a camera's.
    case notCameraView
    /// ``GeoARView/present()`` has not been called.
    case notPresented
    /// The view ended (stopped, failed, its capture done) before a frame came.
    case viewEnded
    /// The task asking was cancelled before a frame came.
    case cancelled
    /// The quality is outside 1–100.
    case invalidQuality(Int)
    /// The frame could not be made into a JPEG.
    case encoding(String)

    /// One line, with the fix.
    public var description: String {
        switch self {
        case .notCameraView:
            "capturePhoto() takes a camera view's next frame; a footage view's frames are its output files"
        case .notPresented: "the view is not presented: call present() (or run()) before capturePhoto()"
        case .viewEnded: "the view ended before the camera delivered a frame"
        case .cancelled: "the photo was cancelled before the camera delivered a frame"
        case .invalidQuality(let quality): "JPEG quality \(quality) is not in 1–100"
        case .encoding(let why): "the frame could not be made into a JPEG: \(why)"
        }
    }
}
