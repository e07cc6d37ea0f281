import Foundation

/// The pose for one frame, with how it was obtained and how good it is.
public struct PoseEstimate: Hashable, Sendable {
    /// The frame's time.
    public var time: Date
    /// Position (ellipsoidal altitude) and camera orientation.
    public var pose: DevicePose
    /// Seconds beyond the nearest position sample, 0 when the frame lies between two samples.
    public var extrapolation: Double
    /// Horizontal position error in metres, when the source said.
    public var horizontalAccuracy: Double?
    /// Heading error in degrees, when known; ``HeadingAccuracyPolicy`` fades markers by it.
    public var headingAccuracy: Double?
    /// Whether the altitude is a stand-in: the fixes had none (2D), or only a mean-sea-level one
    /// with no geoid separation given.
    public var altitudeIsApproximate: Bool

    /// Creates an estimate.
    public init(
        time: Date, pose: DevicePose, extrapolation: Double = 0, horizontalAccuracy: Double? = nil,
        headingAccuracy: Double? = nil, altitudeIsApproximate: Bool = false
    ) {
        self.time = time
        self.pose = pose
        self.extrapolation = extrapolation
        self.horizontalAccuracy = horizontalAccuracy
        self.headingAccuracy = headingAccuracy
        self.altitudeIsApproximate = altitudeIsApproximate
    }
}
