import ArcaptureCore
import Foundation

/// Plays a recorded track (an NMEA log, a GPX file) as a live source: its fixes and orientations in
/// time order, paced by a ``ReplayPace``, then ``LocationStatus/ended``.
///
/// Use it to run a live pipeline on recorded data (a bench test with a camera and an old log), or,
/// frame-driven, to feed recorded positions to a pipeline at each frame's time.
public final class RecordedLocationSource: LocationSource {
    /// The track.
    public let track: RecordedTrack
    /// The pace.
    public let pace: ReplayPace
    private let hub = LocationEventHub(status: .starting)
    private let thread = SourceThread(name: "arcapture.replay")
    private let events: [LocationEvent]
    private let times: [Date]
    private let position = Locked(0)

    /// Creates a source over `track`.
    public init(track: RecordedTrack, pace: ReplayPace) {
        self.track = track
        self.pace = pace
        var merged = track.fixes.map { ($0.time, LocationEvent.fix($0)) }
        merged += track.orientations.map { ($0.time, LocationEvent.orientation($0)) }
        merged.sort { $0.0 < $1.0 }
        events = merged.map(\.1)
        times = merged.map(\.0)
    }

    /// `replay FILE`.
    public var name: String { "replay \(track.file)" }

    /// The status now.
    public var status: LocationStatus { hub.status }

    /// The newest fix played.
    public var latestFix: LocationFix? { hub.latestFix }

    /// Adds an observer.
    public func addObserver(_ observer: @escaping @Sendable (LocationEvent) -> Void) -> LocationObservation {
        hub.addObserver(observer)
    }

    /// Starts playing (for ``ReplayPace/frameDriven``, only reports that samples are ready).
    public func start() {
        switch pace {
        case .frameDriven: hub.publish(.status(.noFix))
        case .immediate: advance(to: .distantFuture)
        case .realTime(let speed):
            guard let first = times.first else {
                hub.publish(.status(.ended))
                return
            }
            let wallStart = Date()
            thread.start { [weak self] thread in
                guard let self else {
                    thread.stop()
                    return
                }
                let recorded = first.addingTimeInterval(Date().timeIntervalSince(wallStart) * max(speed, 1e-6))
                if self.advance(to: recorded) {
                    thread.sleep(0.01)
                } else {
                    thread.stop()
                }
            }
        }
    }

    /// Stops playing.
    public func stop() { thread.stop() }

    /// Whether a real-time replay's thread is playing: false before ``start()``, after the last
    /// sample, and once ``stop()`` has ended it (no event follows then).
    public var isPlaying: Bool { thread.isAlive }

    /// Plays every sample up to `time`; returns false once all have been played.
    @discardableResult
    public func advance(to time: Date) -> Bool {
        let range = position.withLock { index -> Range<Int> in
            let start = index
            while index < times.count && times[index] <= time { index += 1 }
            return start..<index
        }
        for index in range {
            if case .fix(let fix) = events[index] { hub.publish(.status(.fix(fix.mode))) }
            hub.publish(events[index])
        }
        let done = position.withLock { $0 >= times.count }
        if done { hub.publish(.status(.ended)) }
        return !done
    }
}

/// A recorded source of orientations (a sidecar file) plays as a pose source.
extension RecordedLocationSource: PoseSource {}
