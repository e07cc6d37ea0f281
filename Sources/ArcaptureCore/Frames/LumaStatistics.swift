/// How bright a picture is and how much its brightness varies, from a grid of its luma samples:
/// what a camera check needs to call a picture black (a lens cap, no light) or one flat colour (a
/// sensor delivering a constant), whatever the picture's size.
///
/// The grid is at most 64 × 48 samples, at the centres of equal cells: a few thousand reads,
/// which a frame's arrival can afford at any rate, and plenty for a mean and a spread (a picture
/// with anything in it varies across cells; noise alone varies little).
public struct LumaStatistics: Equatable, Sendable {
    /// The mean luma, 0–255.
    public var mean: Double
    /// The luma's standard deviation across the samples, 0–255.
    public var spread: Double
    /// Samples read.
    public var samples: Int

    /// The grid's largest size.
    static let columns = 64
    static let rows = 48

    /// Reads luma at the grid's points of a `width` × `height` picture through `sample` (x, y):
    /// nil for an empty picture.
    public init?(width: Int, height: Int, sample: (_ x: Int, _ y: Int) -> UInt8) {
        guard width > 0, height > 0 else { return nil }
        let (columns, rows) = (min(width, Self.columns), min(height, Self.rows))
        var (sum, squares) = (0.0, 0.0)
        for row in 0..<rows {
            let y = (2 * row + 1) * height / (2 * rows)
            for column in 0..<columns {
                let value = Double(sample((2 * column + 1) * width / (2 * columns), y))
                sum += value
                squares += value * value
            }
        }
        samples = columns * rows
        mean = sum / Double(samples)
        spread = max(0, squares / Double(samples) - mean * mean).squareRoot()
    }

    /// The luma plane of `image`.
    public init?(_ image: YCbCrImage) {
        guard let plane = image.planes.first else { return nil }
        self.init(width: plane.width, height: plane.height) { x, y in plane[x, y] }
    }
}
