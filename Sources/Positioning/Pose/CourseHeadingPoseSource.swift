import ArcaptureCore

/// Heading from the direction of travel of a live location source (see ``CourseHeadingEstimator``):
/// for dash cameras and other cameras without a compass. Pitch and roll are taken as level.
public final class CourseHeadingPoseSource: PoseSource {
    /// The source whose fixes give the course.
    public let location: any LocationSource
    private let hub = LocationEventHub(status: .starting)
    private let estimator: Locked<CourseHeadingEstimator>
    private let observation = ObservationSlot()

    /// Creates the source over `location`'s fixes.
    public init(location: any LocationSource, options: CourseHeadingOptions = CourseHeadingOptions()) {
        self.location = location
        estimator = Locked(CourseHeadingEstimator(options: options))
    }

    /// `course over ground`.
    public var name: String { "course over ground" }

    /// No fix until the first movement.
    public var status: LocationStatus { hub.status }

    /// Adds an observer.
    public func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.addObserver(observer)
    }

    /// Starts following the location source's fixes (it must be started by its owner).
    public func start() {
        let hub = self.hub
        let added = location.addObserver { [weak self] event in
            guard case .fix(let fix) = event, let self else { return }
            guard let sample = estimator.withLock({ $0.update(with: fix) }) else {
                hub.publish(.status(.noFix))
                return
            }
            hub.publish(.status(.fix(.twoD)))
            hub.publish(.orientation(sample))
        }
        observation.replace(with: added)
    }

    /// Stops following.
    public func stop() {
        observation.cancel()
    }
}
