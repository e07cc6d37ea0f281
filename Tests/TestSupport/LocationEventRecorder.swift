import ArcaptureCore
import Foundation
import Positioning

/// Collects a source's events (from its thread) and lets a test wait for a condition on them.
package final class LocationEventRecorder: Sendable {
    private let events = Locked<[LocationEvent]>([])
    private let start = Date()
    private let transcript = Locked<[String]>([])

    /// A recorder with nothing yet.
    package init() {}

    /// A recorder observing `source`, which is started; the closure stops it and cancels.
    package static func started(_ source: any EventSource) -> (LocationEventRecorder, @Sendable () -> Void) {
        let recorder = LocationEventRecorder()
        let observation = source.addObserver(recorder.handler)
        source.start()
        return (
            recorder,
            {
                source.stop()
                observation.cancel()
            }
        )
    }

    /// The handler to give the source.
    package var handler: @Sendable (LocationEvent) -> Void {
        { [self] event in
            events.withLock { $0.append(event) }
            let line = String(format: "%6.2f s  ", Date().timeIntervalSince(start)) + Self.describe(event)
            transcript.withLock { $0.append(line) }
        }
    }

    package var all: [LocationEvent] { events.withLock { $0 } }

    package var fixes: [LocationFix] { all.compactMap { if case .fix(let fix) = $0 { fix } else { nil } } }

    package var orientations: [OrientationSample] {
        all.compactMap { if case .orientation(let sample) = $0 { sample } else { nil } }
    }

    package var statuses: [LocationStatus] {
        all.compactMap { if case .status(let status) = $0 { status } else { nil } }
    }

    /// Every event with its time since the recorder was made, one per line.
    package var transcriptText: String { transcript.withLock { $0.joined(separator: "\n") } }

    /// Waits up to `seconds` for `condition`; returns whether it came true.
    package func wait(seconds: Double, until condition: (LocationEventRecorder) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition(self)
    }

    private static func describe(_ event: LocationEvent) -> String {
        switch event {
        case .status(let status): "status  \(status)"
        case .warning(let text): "warning \(text)"
        case .fix(let fix):
            "fix     \(UTCTime.format(fix.time)) \(fix.mode) \(fix.coordinate)"
                + (fix.course.map { " course \($0)" } ?? "") + (fix.horizontalAccuracy.map { " ±\($0) m" } ?? "")
        case .orientation(let sample):
            "heading \(UTCTime.format(sample.time)) \(sample.heading)° (\(sample.origin.rawValue))"
        }
    }
}
