/// How the camera sees: a calibration or a field of view, and how high it is above the ground.
public struct CameraGeometry: Sendable, Equatable {
    /// A calibration file (ROS `camera_info` YAML or OpenCV), scaled to the frames' size; nil to
    /// use ``horizontalFieldOfView`` with no distortion.
    public var calibrationFile: String?
    /// The horizontal field of view in degrees, without a calibration file (and without
    /// ``fieldOfViewFromPhotos``).
    public var horizontalFieldOfView: Double
    /// Whether each photo's own EXIF lens data gives its field of view (footage that is a folder
    /// of photos, from cameras or zooms that differ), in place of ``horizontalFieldOfView``; a
    /// photo whose EXIF says nothing of its lens is passed through unannotated, with a warning,
    /// rather than drawn for a guess. Ignored with a calibration file.
    public var fieldOfViewFromPhotos = false
    /// Metres from the ground up to the camera: the route and POIs without an altitude lie on the
    /// ground this far below.
    public var heightAboveGround: Double

    /// Creates a geometry.
    public init(calibrationFile: String? = nil, horizontalFieldOfView: Double = 70, heightAboveGround: Double = 1.5) {
        self.calibrationFile = calibrationFile
        self.horizontalFieldOfView = horizontalFieldOfView
        self.heightAboveGround = heightAboveGround
    }
}
