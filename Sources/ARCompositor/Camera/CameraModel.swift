import Foundation

/// A camera: image size, pinhole intrinsics and lens distortion, as geometry spec §4 defines them.
///
/// Projection works in the raw (distorted) image the camera delivers. Points whose undistorted
/// radius lies beyond the distortion's monotonic range are not projected (they would fold back into
/// the image).
public struct CameraModel: Hashable, Sendable {
    /// Image width in pixels.
    public let width: Int
    /// Image height in pixels.
    public let height: Int
    /// Focal lengths and principal point.
    public let intrinsics: CameraIntrinsics
    /// The lens distortion.
    public let distortion: LensDistortion
    /// The name a calibration file gives the camera, if any.
    public let name: String?
    /// The undistorted normalised radius beyond which points are not projected.
    public let monotonicRadius: Double

    /// The near plane: points with camera z at or below this many metres are not visible.
    public static let nearPlane = 0.1

    /// Creates a model from its parts.
    public init(
        width: Int, height: Int, intrinsics: CameraIntrinsics, distortion: LensDistortion = .none, name: String? = nil
    ) {
        self.width = width
        self.height = height
        self.intrinsics = intrinsics
        self.distortion = distortion
        self.name = name
        monotonicRadius = distortion.monotonicRadius
    }

    /// An undistorted camera from its horizontal field of view: fx = fy = (W/2)/tan(hfov/2),
    /// cx = W/2, cy = H/2 (not (W−1)/2, which is 0.7 px off the spec).
    ///
    /// - Parameters:
    ///   - horizontalFieldOfView: degrees, greater than 0 and less than 180.
    ///   - width: image width in pixels.
    ///   - height: image height in pixels.
    public init(horizontalFieldOfView: Double, width: Int, height: Int) {
        let focal = Double(width) / 2 / tan(horizontalFieldOfView * .pi / 360)
        self.init(
            width: width, height: height,
            intrinsics: CameraIntrinsics(fx: focal, fy: focal, cx: Double(width) / 2, cy: Double(height) / 2))
    }

    /// The same calibration for frames of another size with the same aspect ratio: fx and cx scale
    /// by W′/W, fy and cy by H′/H.
    ///
    /// - Throws: ``CameraModelError/aspectRatioMismatch(from:to:)`` when the aspect ratios differ by
    ///   more than half a pixel's worth.
    public func scaled(toWidth newWidth: Int, height newHeight: Int) throws(CameraModelError) -> CameraModel {
        if newWidth == width && newHeight == height { return self }
        // Same aspect when W'/W and H'/H agree to within a pixel of the larger side.
        let scaleX = Double(newWidth) / Double(width)
        let scaleY = Double(newHeight) / Double(height)
        guard abs(scaleX * Double(height) - Double(newHeight)) < 1, abs(scaleY * Double(width) - Double(newWidth)) < 1
        else {
            throw .aspectRatioMismatch(from: "\(width)x\(height)", to: "\(newWidth)x\(newHeight)")
        }
        let scaled = CameraIntrinsics(
            fx: intrinsics.fx * scaleX, fy: intrinsics.fy * scaleY, cx: intrinsics.cx * scaleX,
            cy: intrinsics.cy * scaleY)
        return CameraModel(width: newWidth, height: newHeight, intrinsics: scaled, distortion: distortion, name: name)
    }

    /// The camera as a digital zoom by `factor` about the image's centre sees it (the middle
    /// `1/factor` of each side scaled up to the same size, as `YCbCrImage.zoom(by:)` does): the
    /// focal lengths times `factor`, the principal point moved away from the centre by it; the lens
    /// distortion, in normalised coordinates, is the same. A factor of 1 or less is the camera.
    public func zoomed(by factor: Double) -> CameraModel {
        guard factor > 1, factor.isFinite else { return self }
        let centreX = Double(width) / 2
        let centreY = Double(height) / 2
        let zoomed = CameraIntrinsics(
            fx: intrinsics.fx * factor, fy: intrinsics.fy * factor, cx: (intrinsics.cx - centreX) * factor + centreX,
            cy: (intrinsics.cy - centreY) * factor + centreY)
        return CameraModel(width: width, height: height, intrinsics: zoomed, distortion: distortion, name: name)
    }

    /// The pixel of a point in camera coordinates (x right, y down, z forward, metres), or nil when
    /// it is at or behind the near plane, or beyond the distortion's monotonic range.
    public func project(_ point: SIMD3<Double>) -> PixelPoint? {
        guard point.z > Self.nearPlane else { return nil }
        return project(normalized: point.x / point.z, point.y / point.z)
    }

    /// The pixel of a normalised point (x′ = X/Z, y′ = Y/Z), or nil beyond the monotonic range.
    public func project(normalized x: Double, _ y: Double) -> PixelPoint? {
        guard (x * x + y * y).squareRoot() <= monotonicRadius else { return nil }
        let distorted = distortion.apply(x, y)
        return PixelPoint(
            u: intrinsics.fx * distorted.x + intrinsics.cx, v: intrinsics.fy * distorted.y + intrinsics.cy)
    }

    /// Whether a pixel lies inside the image: 0 ≤ u < W and 0 ≤ v < H.
    public func contains(_ pixel: PixelPoint) -> Bool {
        pixel.u >= 0 && pixel.u < Double(width) && pixel.v >= 0 && pixel.v < Double(height)
    }

    /// The viewing ray through a pixel, as a normalised point (x′, y′, 1) in camera coordinates.
    ///
    /// Undistortion has no closed form; Newton's method on the distortion mapping converges in a
    /// few steps inside the monotonic range (the starting guess is the distorted point itself).
    public func ray(through pixel: PixelPoint) -> SIMD3<Double> {
        let targetX = (pixel.u - intrinsics.cx) / intrinsics.fx
        let targetY = (pixel.v - intrinsics.cy) / intrinsics.fy
        if case .none = distortion { return SIMD3(targetX, targetY, 1) }
        var x = targetX
        var y = targetY
        let h = 1e-7
        for _ in 0..<50 {
            let current = distortion.apply(x, y)
            let errorX = current.x - targetX
            let errorY = current.y - targetY
            if errorX * errorX + errorY * errorY < 1e-26 { break }
            let dx = distortion.apply(x + h, y)
            let dy = distortion.apply(x, y + h)
            let a = (dx.x - current.x) / h
            let b = (dy.x - current.x) / h
            let c = (dx.y - current.y) / h
            let d = (dy.y - current.y) / h
            let determinant = a * d - b * c
            guard abs(determinant) > 1e-15 else { break }
            x -= (d * errorX - b * errorY) / determinant
            y -= (-c * errorX + a * errorY) / determinant
        }
        return SIMD3(x, y, 1)
    }
}
