import CaptureKit
import GeoAR
import Positioning

/// One of the check's extra sessions (a lifecycle start, a mode of `--all-formats`): started at
/// `location`, run until `event` is set (Ctrl-C sets it to `interrupted`), then stopped.
enum CheckSessionRun {
    /// Runs `session` until `event` is set; what set it.
    static func run<Event: Sendable>(
        _ session: CaptureSession, until event: OutcomeLatch<Event>, interrupted: Event,
        interruption: OutcomeLatch<Void>, location: any LocationSource
    ) async -> Event {
        interruption.whenSet { event.set(interrupted) }
        session.locationSource = location
        session.startRunning()
        let ended = await event.wait()
        await session.stop()
        return ended
    }
}
