import Positioning

/// Where a ``PoseTimeline``'s orientations come from.
public enum OrientationInput: Sendable {
    /// One orientation for all time: a fixed mount (`--orientation`), with its heading error if known.
    case fixed(DeviceOrientation, headingAccuracy: Double?)
    /// Timed samples of the body's orientation (course over ground, true heading, sidecar, IMU),
    /// interpolated like positions; a sample without pitch or roll is taken as level.
    case samples([OrientationSample])
}
