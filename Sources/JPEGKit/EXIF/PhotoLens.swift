import Foundation

/// What a photo's EXIF says of its lens and sensor, enough for its field of view:
/// `FocalLengthIn35mmFilm`, or `FocalLength` with the focal plane's resolution and the image's
/// pixel dimensions as the camera wrote them.
public struct PhotoLens: Sendable {
    /// `FocalLengthIn35mmFilm` (0xA405), millimetres.
    public var focalLengthIn35mm: Double?
    /// `FocalLength` (0x920A), millimetres.
    public var focalLength: Double?
    /// `FocalPlaneXResolution` and `FocalPlaneYResolution` (0xA20E, 0xA20F), in pixels per
    /// millimetre (converted from `FocalPlaneResolutionUnit`).
    public var focalPlanePixelsPerMillimetre: (x: Double, y: Double)?
    /// `PixelXDimension` and `PixelYDimension` (0xA002, 0xA003): the image the camera wrote, which a
    /// resized copy no longer is.
    public var pixelDimensions: (width: Int, height: Int)?

    /// Creates a description.
    public init(
        focalLengthIn35mm: Double? = nil, focalLength: Double? = nil,
        focalPlanePixelsPerMillimetre: (x: Double, y: Double)? = nil, pixelDimensions: (width: Int, height: Int)? = nil
    ) {
        self.focalLengthIn35mm = focalLengthIn35mm
        self.focalLength = focalLength
        self.focalPlanePixelsPerMillimetre = focalPlanePixelsPerMillimetre
        self.pixelDimensions = pixelDimensions
    }

    /// The diagonal of a 35 mm film frame (36 x 24 mm), which a 35 mm equivalent focal length
    /// keeps: the equivalent is the focal length that gives the same diagonal angle of view.
    static let filmDiagonal = (36.0 * 36 + 24 * 24).squareRoot()

    /// The horizontal field of view of the upright picture `width` x `height` (the stored one turned
    /// when `turned`, EXIF orientations 5 to 8), in degrees, with how it was found; nil when the EXIF
    /// gives neither way.
    ///
    /// From the 35 mm equivalent: the picture's diagonal is taken as the film's (43.27 mm), so its
    /// width is 43.27 mm x width / diagonal, and the angle is 2 atan(width / 2f). This is the
    /// definition phone makers follow (the same diagonal angle of view), and for a 3:2 picture it
    /// is exiftool's `FOV` (which takes the width as 36 mm whatever the aspect). From the focal
    /// length: the sensor's width is the pixels the camera wrote across divided by the focal
    /// plane's pixels per millimetre.
    public func horizontalFieldOfView(width: Int, height: Int, turned: Bool = false) -> (
        degrees: Double, from: String
    )? {
        guard width > 0, height > 0 else { return nil }
        if let f35 = focalLengthIn35mm, f35 > 0 {
            let across = Self.filmDiagonal * Double(width) / (Double(width * width + height * height)).squareRoot()
            let degrees = 2 * atan(across / (2 * f35)) * 180 / .pi
            return (degrees, String(format: "its 35 mm equivalent focal length, %.0f mm", f35))
        }
        if let focal = focalLength, focal > 0, let resolution = focalPlanePixelsPerMillimetre {
            // The upright width is the sensor's height when the picture is stored turned.
            let pixels = Double(
                turned ? (pixelDimensions?.height ?? height) : (pixelDimensions?.width ?? width))
            let perMillimetre = turned ? resolution.y : resolution.x
            guard perMillimetre > 0 else { return nil }
            let sensor = pixels / perMillimetre
            let degrees = 2 * atan(sensor / (2 * focal)) * 180 / .pi
            return (
                degrees,
                String(format: "its focal length, %.1f mm, on a sensor %.2f mm across", focal, sensor)
            )
        }
        return nil
    }
}
