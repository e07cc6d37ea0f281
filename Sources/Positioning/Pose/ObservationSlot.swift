import ArcaptureCore

/// Holds the one observation a derived source keeps on the source it follows, so starting twice
/// does not observe twice and stopping cancels it.
final class ObservationSlot: Sendable {
    private let current = Locked<LocationObservation?>(nil)

    /// Keeps `observation`, cancelling the one held before.
    func replace(with observation: LocationObservation) {
        current.withLock { held in
            defer { held = observation }
            return held
        }?.cancel()
    }

    /// Cancels and forgets the observation held.
    func cancel() {
        current.withLock { held in
            defer { held = nil }
            return held
        }?.cancel()
    }
}
