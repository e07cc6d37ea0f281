extension YCbCrImage {
    /// Zooms in on the image's centre, keeping its size: the middle `1/factor` of its width and
    /// height scaled up to the whole (a digital zoom, as a phone's camera does beyond its lens).
    /// Each plane is resampled bilinearly in its own grid, with chroma sited at the centre of the
    /// luma it covers, as JPEG's is. A factor of 1 or less leaves the image as it is.
    ///
    /// Written here rather than through FFmpeg's swscale: the image is already planar YCbCr in
    /// memory, the crop is a pure coordinate change, and a bilinear pass over it is a few lines;
    /// swscale would need a context per size and factor and a copy into its frames and back.
    ///
    /// - Parameter factor: how much to magnify; the geometry of the result is the camera's
    ///   (``zoomedCoordinate(_:size:factor:)`` says where a pixel moves).
    public mutating func zoom(by factor: Double) {
        guard factor > 1, factor.isFinite else { return }
        let h = subsampling == .gray ? 1 : subsampling.horizontalFactor
        let v = subsampling == .gray ? 1 : subsampling.verticalFactor
        for index in planes.indices {
            let (scaleX, scaleY) = index == 0 ? (1, 1) : (h, v)
            // The image's centre in this plane's samples.
            let centreX = Double(width) / 2 / Double(scaleX)
            let centreY = Double(height) / 2 / Double(scaleY)
            planes[index].zoom(by: factor, centreX: centreX, centreY: centreY)
        }
    }

    /// Where a point of an image `size` wide and high lands once the image is zoomed by `factor`
    /// about its centre (``zoom(by:)``), in pixels; one coordinate at a time.
    public static func zoomedCoordinate(_ coordinate: Double, size: Int, factor: Double) -> Double {
        let centre = Double(size) / 2
        return (coordinate - centre) * factor + centre
    }
}

extension YCbCrImage.Plane {
    /// Resamples the plane's visible samples so the `1/factor` of it around (`centreX`,
    /// `centreY`) fills it (bilinear, clamped at the edges).
    fileprivate mutating func zoom(by factor: Double, centreX: Double, centreY: Double) {
        guard width > 0, height > 0 else { return }
        let source = bytes
        let stride = self.stride
        // The source column and weight of each output column, fixed-point in 1/256.
        var columns = [Int](repeating: 0, count: width)
        var columnWeights = [Int](repeating: 0, count: width)
        for x in 0..<width {
            let at = (Double(x) + 0.5 - centreX) / factor + centreX - 0.5
            let clamped = min(max(at, 0), Double(width - 1))
            let left = min(Int(clamped), width - 1)
            columns[x] = left
            columnWeights[x] = Int(((clamped - Double(left)) * 256).rounded())
        }
        let lastColumn = width - 1
        let lastRow = height - 1
        bytes.withUnsafeMutableBufferPointer { out in
            source.withUnsafeBufferPointer { input in
                columns.withUnsafeBufferPointer { columns in
                    columnWeights.withUnsafeBufferPointer { weights in
                        for y in 0..<height {
                            let at = (Double(y) + 0.5 - centreY) / factor + centreY - 0.5
                            let clamped = min(max(at, 0), Double(lastRow))
                            let top = min(Int(clamped), lastRow)
                            let below = min(top + 1, lastRow)
                            let rowWeight = Int(((clamped - Double(top)) * 256).rounded())
                            let upper = top * stride
                            let lower = below * stride
                            let row = y * stride
                            for x in 0..<width {
                                let left = columns[x]
                                let right = min(left + 1, lastColumn)
                                let weight = weights[x]
                                let a = Int(input[upper + left]) * (256 - weight) + Int(input[upper + right]) * weight
                                let b = Int(input[lower + left]) * (256 - weight) + Int(input[lower + right]) * weight
                                out[row + x] = UInt8((a * (256 - rowWeight) + b * rowWeight + 32_768) >> 16)
                            }
                        }
                    }
                }
            }
        }
    }
}
