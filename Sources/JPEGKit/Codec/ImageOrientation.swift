import ArcaptureCore

/// How a photo's stored pixels are turned to show it upright: EXIF's Orientation tag (0x0112).
///
/// Phones and cameras store the sensor's rows as they came and say in the tag how to turn them:
/// a portrait photo is usually stored landscape with orientation 6 (turn 90° clockwise). Drawing
/// on the stored pixels would put the overlay sideways, and the camera's field of view refers to
/// the upright picture.
public enum ImageOrientation: Int, Hashable, Sendable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Upside down (turn 180°).
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// Turn 90° clockwise to show (a portrait photo from most phones).
    case right = 6
    /// Mirrored along the other diagonal (transversed).
    case rightMirrored = 7
    /// Turn 90° anticlockwise to show.
    case left = 8

    /// Whether showing it upright swaps width and height.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The stored sample shown at (`x`, `y`) of the upright plane, for a stored plane `width` ×
    /// `height`.
    func source(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (width - 1 - x, y)
        case .down: (width - 1 - x, height - 1 - y)
        case .downMirrored: (x, height - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, height - 1 - x)
        case .rightMirrored: (width - 1 - y, height - 1 - x)
        case .left: (width - 1 - y, x)
        }
    }
}

extension YCbCrImage {
    /// This image turned upright for `orientation`: every plane moved sample by sample (no
    /// resampling; 4:2:2 turned a quarter is 4:4:0, and the other way). 4:1:1, which has no
    /// turned counterpart, goes through 4:4:4.
    public func turnedUpright(_ orientation: ImageOrientation) -> YCbCrImage {
        guard orientation != .up else { return self }
        let swaps = orientation.swapsAxes
        if swaps && subsampling == .s411 { return resampled(to: .s444).turnedUpright(orientation) }
        let layout: ChromaSubsampling =
            switch (swaps, subsampling) {
            case (true, .s422): .s440
            case (true, .s440): .s422
            default: subsampling
            }
        var result = YCbCrImage(
            width: swaps ? height : width, height: swaps ? width : height, subsampling: layout)
        for index in planes.indices {
            let source = planes[index]
            var destination = result.planes[index]
            let (width, height) = (source.width, source.height)
            // A chroma plane rounded up on one axis may be a sample short of the turned size on
            // the other: the last one repeats.
            for y in 0..<destination.height {
                for x in 0..<destination.width {
                    let from = orientation.source(
                        x: min(x, swaps ? height - 1 : width - 1), y: min(y, swaps ? width - 1 : height - 1),
                        width: width, height: height)
                    destination[x, y] = source[from.x, from.y]
                }
            }
            result.planes[index] = destination
        }
        return result
    }
}
