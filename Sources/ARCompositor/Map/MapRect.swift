/// The rectangle of a frame a map view draws into, in pixels.
public struct MapRect: Sendable, Hashable {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width.
    public var width: Int
    /// Height.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The centre, in pixels.
    var center: SIMD2<Double> { SIMD2(Double(x) + Double(width) / 2, Double(y) + Double(height) / 2) }

    /// Whether `point` lies inside, `margin` pixels in from the edges.
    func contains(_ point: SIMD2<Double>, margin: Double = 0) -> Bool {
        point.x >= Double(x) + margin && point.x <= Double(x + width) - margin && point.y >= Double(y) + margin
            && point.y <= Double(y + height) - margin
    }

    /// Whether the two rectangles overlap.
    func intersects(_ other: MapRect) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }
}
