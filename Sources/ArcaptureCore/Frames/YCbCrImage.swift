/// A planar YCbCr image (or a greyscale one) in full-range BT.601, JPEG's colour model.
///
/// This is what `JPEGDecoder` produces and `JPEGEncoder` consumes, so a frame goes from decode
/// to encode without an RGB round trip. The luma plane is allocated padded to a whole number of
/// chroma samples (a 641x479 4:2:0 image has a 642x480 luma buffer): libjpeg-turbo reads and writes
/// luma in whole chroma blocks, and an unpadded buffer would be overrun. ``Plane/width`` and
/// ``Plane/height`` stay the visible size; the padding repeats nothing and is never shown.
public struct YCbCrImage: Hashable, Sendable {
    /// One plane of samples.
    public struct Plane: Hashable, Sendable {
        /// Samples per row.
        public var width: Int
        /// Rows.
        public var height: Int
        /// Bytes from one row to the next (at least ``width``).
        public var stride: Int
        /// Rows allocated (at least ``height``).
        public var allocatedRows: Int
        /// The samples, `stride × allocatedRows` bytes.
        public var bytes: [UInt8]

        /// Creates a plane filled with `value`.
        ///
        /// - Parameters:
        ///   - width: visible samples per row.
        ///   - height: visible rows.
        ///   - stride: bytes per row in memory; at least `width` (the default).
        ///   - allocatedRows: rows in memory; at least `height` (the default).
        ///   - value: the initial sample value.
        public init(width: Int, height: Int, stride: Int? = nil, allocatedRows: Int? = nil, filledWith value: UInt8 = 0)
        {
            self.width = width
            self.height = height
            self.stride = max(stride ?? width, width)
            self.allocatedRows = max(allocatedRows ?? height, height)
            self.bytes = [UInt8](repeating: value, count: self.stride * self.allocatedRows)
        }

        /// The sample at (`x`, `y`).
        public subscript(x: Int, y: Int) -> UInt8 {
            get { bytes[y * stride + x] }
            set { bytes[y * stride + x] = newValue }
        }
    }

    /// Width in pixels (of the luma plane).
    public var width: Int
    /// Height in pixels (of the luma plane).
    public var height: Int
    /// How the chroma planes are sampled.
    public var subsampling: ChromaSubsampling
    /// Y, then Cb and Cr (absent for ``ChromaSubsampling/gray``).
    public var planes: [Plane]

    /// Creates a mid-grey image (Y 128, Cb and Cr 128) of the given size and layout.
    ///
    /// - Precondition: `width` and `height` are positive.
    public init(width: Int, height: Int, subsampling: ChromaSubsampling) {
        precondition(width > 0 && height > 0, "an image needs a positive size")
        self.width = width
        self.height = height
        self.subsampling = subsampling
        let chroma = Self.chromaSize(width: width, height: height, subsampling: subsampling)
        let paddedWidth = chroma.width * subsampling.horizontalFactor
        let paddedHeight = chroma.height * subsampling.verticalFactor
        var planes = [
            Plane(width: width, height: height, stride: paddedWidth, allocatedRows: paddedHeight, filledWith: 128)
        ]
        if subsampling != .gray {
            planes.append(Plane(width: chroma.width, height: chroma.height, filledWith: 128))
            planes.append(Plane(width: chroma.width, height: chroma.height, filledWith: 128))
        }
        self.planes = planes
    }

    /// Each plane's samples as libjpeg-turbo reads and writes them (`tjPlaneWidth`, `tjPlaneHeight`):
    /// luma to whole chroma samples (the padding every image allocates), chroma as it is. An encoder
    /// repeats the last of these columns and rows out to whole blocks.
    package static func codedPlaneSizes(width: Int, height: Int, subsampling: ChromaSubsampling) -> [(
        width: Int, height: Int
    )] {
        let chroma = chromaSize(width: width, height: height, subsampling: subsampling)
        let luma = (chroma.width * subsampling.horizontalFactor, chroma.height * subsampling.verticalFactor)
        return subsampling == .gray ? [(width, height)] : [luma, chroma, chroma]
    }

    /// The size of each chroma plane for an image of this size and layout (rounded up).
    public static func chromaSize(width: Int, height: Int, subsampling: ChromaSubsampling) -> (width: Int, height: Int)
    {
        let h = subsampling.horizontalFactor
        let v = subsampling.verticalFactor
        return ((width + h - 1) / h, (height + v - 1) / v)
    }

    /// This image with its chroma resampled to `target`: box-filter averaging where resolution
    /// drops, sample repetition where it rises. Luma is untouched. Converting to
    /// ``ChromaSubsampling/gray`` drops chroma; converting from it gives neutral chroma.
    public func resampled(to target: ChromaSubsampling) -> YCbCrImage {
        if target == subsampling { return self }
        var result = YCbCrImage(width: width, height: height, subsampling: target)
        result.planes[0] = planes[0]
        guard target != .gray, subsampling != .gray else { return result }
        for index in 1...2 {
            let source = planes[index]
            var destination = result.planes[index]
            let sourceH = subsampling.horizontalFactor
            let sourceV = subsampling.verticalFactor
            let targetH = target.horizontalFactor
            let targetV = target.verticalFactor
            for y in 0..<destination.height {
                // The luma rows this destination sample covers, clipped to the image.
                let lumaTop = y * targetV
                let lumaBottom = min(lumaTop + targetV, height)
                for x in 0..<destination.width {
                    let lumaLeft = x * targetH
                    let lumaRight = min(lumaLeft + targetH, width)
                    var sum = 0
                    var count = 0
                    var sourceY = lumaTop / sourceV
                    while sourceY * sourceV < lumaBottom {
                        var sourceX = lumaLeft / sourceH
                        while sourceX * sourceH < lumaRight {
                            sum += Int(source[sourceX, sourceY])
                            count += 1
                            sourceX += 1
                        }
                        sourceY += 1
                    }
                    destination[x, y] = UInt8((sum + count / 2) / max(count, 1))
                }
            }
            result.planes[index] = destination
        }
        return result
    }
}
