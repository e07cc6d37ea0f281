/// The part of the output frames a view draws into, as fractions of their width and height: the
/// whole frame for an AR view, a corner for a map view shown as an inset. The counterpart of a
/// UIKit view's frame in its superview.
public struct ViewFrame: Sendable, Equatable {
    /// Left edge, 0–1.
    public var x: Double
    /// Top edge, 0–1.
    public var y: Double
    /// Width, 0–1.
    public var width: Double
    /// Height, 0–1.
    public var height: Double

    /// Creates a frame from fractions.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole frame.
    public static let full = ViewFrame(x: 0, y: 0, width: 1, height: 1)
}
