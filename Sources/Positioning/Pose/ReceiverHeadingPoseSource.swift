/// The heading a receiver measures itself: NMEA HDT, THS or HDG with variation, `$PASHR`, or gpsd's
/// ATT, as the location source reports them (dual-antenna receivers, gyrocompasses, GPS+IMU units).
public final class ReceiverHeadingPoseSource: PoseSource {
    /// The source whose orientation events are passed on.
    public let location: any LocationSource
    private let hub = LocationEventHub(status: .starting)
    private let observation = ObservationSlot()

    /// Creates the source over `location`'s orientation events.
    public init(location: any LocationSource) { self.location = location }

    /// `receiver heading`.
    public var name: String { "receiver heading" }

    /// No fix until the first heading.
    public var status: LocationStatus { hub.status }

    /// Adds an observer.
    public func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.addObserver(observer)
    }

    /// Starts passing on the location source's headings.
    public func start() {
        let hub = self.hub
        let added = location.addObserver { event in
            guard case .orientation(let sample) = event else { return }
            hub.publish(.status(.fix(.threeD)))
            hub.publish(.orientation(sample))
        }
        observation.replace(with: added)
    }

    /// Stops passing them on.
    public func stop() {
        observation.cancel()
    }
}
