import ArcaptureCore
import Foundation

/// A location source that always reports the same position, as given on a command line
/// (`--location LAT,LON[,ALT]`) or for a camera on a fixed mount.
///
/// Starting it publishes one fix (stamped with the time of starting) and a 3D status when the
/// altitude is given, 2D when not; ``latestFix`` always answers with a fix stamped now.
public final class FixedLocationSource: LocationSource {
    /// The position.
    public let coordinate: GeodeticCoordinate
    private let hub = LocationEventHub(status: .starting)

    /// Creates a source at `coordinate`.
    public init(_ coordinate: GeodeticCoordinate) { self.coordinate = coordinate }

    /// `fixed LAT,LON[,ALT]`.
    public var name: String { "fixed \(coordinate)" }

    /// ``LocationStatus/starting`` until started, then a fix.
    public var status: LocationStatus { hub.status }

    /// A fix at ``coordinate`` stamped now: the position holds at every time.
    public var latestFix: LocationFix? { fix(at: Date()) }

    /// Adds an observer.
    public func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.addObserver(observer)
    }

    /// Publishes the position.
    public func start() {
        let fix = fix(at: Date())
        hub.publish(.status(.fix(fix.mode)))
        hub.publish(.fix(fix))
    }

    /// Nothing to release.
    public func stop() {}

    private func fix(at time: Date) -> LocationFix {
        LocationFix(
            time: time, coordinate: coordinate, mode: coordinate.altitude == nil ? .twoD : .threeD,
            receivedMonotonicNanoseconds: MonotonicClock.nanoseconds(), horizontalAccuracy: 0,
            verticalAccuracy: coordinate.altitude == nil ? nil : 0)
    }
}
