import Foundation

/// A camera on a fixed mount: one heading, pitch and roll for all time (`--orientation H,P,R`).
public final class FixedPoseSource: PoseSource {
    /// Degrees clockwise from true north.
    public let heading: Double
    /// Degrees above the horizon.
    public let pitch: Double
    /// Degrees clockwise about the optical axis, seen from behind.
    public let roll: Double
    /// The heading's error in degrees, when the user knows it (a compass reading, say).
    public let headingAccuracy: Double?
    private let hub = LocationEventHub(status: .starting)

    /// Creates the source.
    public init(heading: Double, pitch: Double = 0, roll: Double = 0, headingAccuracy: Double? = nil) {
        self.heading = heading
        self.pitch = pitch
        self.roll = roll
        self.headingAccuracy = headingAccuracy
    }

    /// `fixed HEADING,PITCH,ROLL`.
    public var name: String { "fixed \(heading),\(pitch),\(roll)" }

    /// ``LocationStatus/starting`` until started, then a 3D "fix".
    public var status: LocationStatus { hub.status }

    /// Adds an observer.
    public func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.addObserver(observer)
    }

    /// Publishes the orientation once.
    public func start() {
        hub.publish(.status(.fix(.threeD)))
        hub.publish(
            .orientation(
                OrientationSample(
                    time: Date(), heading: heading, pitch: pitch, roll: roll, headingAccuracy: headingAccuracy,
                    origin: .fixed)))
    }

    /// Nothing to release.
    public func stop() {}
}
