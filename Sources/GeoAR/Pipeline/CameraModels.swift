import ARCompositor

/// The camera model for each frame size met, made once: a calibration scaled to the size, or the
/// field of view. A calibration that does not fit a size gives nil for it.
struct CameraModels {
    private var models: [SIMD2<Int>: CameraModel?] = [:]

    /// The model for `geometry` at `width`×`height`.
    mutating func camera(_ geometry: CameraGeometry, width: Int, height: Int) -> CameraModel? {
        let key = SIMD2(width, height)
        if let known = models[key] { return known }
        let made: CameraModel?
        if let path = geometry.calibrationFile {
            made = try? CameraModel(cameraInfoFile: path, frameSize: (width, height))
        } else {
            made = CameraModel(horizontalFieldOfView: geometry.horizontalFieldOfView, width: width, height: height)
        }
        models[key] = made
        return made
    }
}
