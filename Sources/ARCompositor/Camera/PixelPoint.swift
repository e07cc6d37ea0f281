/// A position in the image, in pixels: u to the right, v down, (0, 0) the top-left corner of the
/// top-left pixel.
public struct PixelPoint: Hashable, Sendable {
    /// Pixels from the left edge.
    public var u: Double
    /// Pixels from the top edge.
    public var v: Double

    /// Creates a point.
    public init(u: Double, v: Double) {
        self.u = u
        self.v = v
    }
}
