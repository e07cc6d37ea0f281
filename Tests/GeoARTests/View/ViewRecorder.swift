import ARCompositor
import CaptureKit
import Dispatch
import Foundation
import GeoAR
import TestSupport

@testable import ArcaptureCore
@testable import Positioning

/// Collects what a view tells its handlers, on the handler queue the tests give it, and says
/// whether any handler ran elsewhere.
final class ViewRecorder: Sendable {
    struct Events: Sendable {
        var phases: [LoadPhase] = []
        var loaded = 0
        var failures: [GeoARError] = []
        var coordinates: [GeodeticCoordinate] = []
        var offQueue = 0
    }

    /// The queue handlers must run on.
    let queue = DispatchQueue(label: "test.geoar-handlers")
    private let key = DispatchSpecificKey<Bool>()
    private let events = Locked(Events())

    init() {
        queue.setSpecific(key: key, value: true)
    }

    /// What has arrived so far.
    var snapshot: Events { events.withLock { $0 } }

    private func record(_ change: (inout Events) -> Void) {
        let onQueue = DispatchQueue.getSpecific(key: key) == true
        events.withLock { events in
            change(&events)
            if !onQueue { events.offQueue += 1 }
        }
    }

    /// Adds this recorder's handlers to `view`.
    func attach(to view: GeoARView) {
        view.onPhaseChange { [self] phase in record { $0.phases.append(phase) } }
        view.onLoaded { [self] _ in record { $0.loaded += 1 } }
        view.onFailed { [self] error in record { $0.failures.append(error) } }
        view.userCoordinate { [self] coordinate in record { $0.coordinates.append(coordinate) } }
    }

    /// `builder` with this recorder's handlers added.
    func attach(to builder: GeoAR) -> GeoAR {
        builder.onPhaseChange { [self] phase in record { $0.phases.append(phase) } }
            .onLoaded { [self] _ in record { $0.loaded += 1 } }
            .onFailed { [self] error in record { $0.failures.append(error) } }
            .userCoordinate { [self] coordinate in record { $0.coordinates.append(coordinate) } }
    }

    /// Waits (60 s at most: only a hang reaches it) until `condition` holds.
    func wait(_ condition: (Events) -> Bool) -> Bool { waitUntil { condition(snapshot) } }
}
