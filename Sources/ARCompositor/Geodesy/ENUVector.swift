import Foundation
import Positioning

/// A displacement in the local East-North-Up frame at the device, in metres.
public struct ENUVector: Hashable, Sendable {
    /// Metres east.
    public var east: Double
    /// Metres north.
    public var north: Double
    /// Metres up (along the ellipsoid normal at the device).
    public var up: Double

    /// Creates a displacement.
    public init(east: Double, north: Double, up: Double) {
        self.east = east
        self.north = north
        self.up = up
    }

    /// The straight-line (3-D) distance.
    public var distance: Double { (east * east + north * north + up * up).squareRoot() }

    /// The distance along the local horizontal plane.
    public var horizontalDistance: Double { (east * east + north * north).squareRoot() }

    /// Degrees clockwise from north, in [0, 360): atan2(e, n); 0 when the point is straight above or
    /// below (horizontal distance under 1e-6 m).
    public var bearing: Double {
        guard horizontalDistance >= 1e-6 else { return 0 }
        return CompassDegrees.wrapped(atan2(east, north) * 180 / .pi)
    }

    /// Degrees above the local horizontal: atan2(u, √(e²+n²)), no refraction.
    public var elevation: Double { atan2(up, horizontalDistance) * 180 / .pi }

    /// The displacement as a vector (east, north, up).
    var vector: SIMD3<Double> { SIMD3(east, north, up) }
}
