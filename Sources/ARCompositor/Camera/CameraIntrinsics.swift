/// A pinhole camera's focal lengths and principal point, in pixels.
public struct CameraIntrinsics: Hashable, Sendable {
    /// Focal length along x, in pixels.
    public var fx: Double
    /// Focal length along y, in pixels.
    public var fy: Double
    /// Principal point x (pixels from the left edge).
    public var cx: Double
    /// Principal point y (pixels from the top edge).
    public var cy: Double

    /// Creates intrinsics.
    public init(fx: Double, fy: Double, cx: Double, cy: Double) {
        self.fx = fx
        self.fy = fy
        self.cx = cx
        self.cy = cy
    }
}
