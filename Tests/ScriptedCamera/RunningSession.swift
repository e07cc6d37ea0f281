@_spi(Testing) import CaptureKit
import Positioning

/// A session over a scripted device, configured, given a location source, started and running:
/// the setup most session tests share.
package struct RunningSession {
    package let factory: ScriptedDeviceFactory
    package let session: CaptureSession
    package let recorder: SessionRecorder
    /// The device the session opened.
    package let device: ScriptedVideoDevice

    /// Starts a session and waits until it runs.
    ///
    /// - Parameters:
    ///   - script: the device's script.
    ///   - location: the location source to assign.
    ///   - configure: changes made before the session starts (configuration, handlers).
    package static func start(
        _ script: ScriptedVideoDevice.Script = .init(), location: any LocationSource = NoPositionSource(),
        configure: (CaptureSession) -> Void = { _ in }
    ) async throws -> RunningSession {
        let factory = ScriptedDeviceFactory(script: script)
        let session = factory.makeSession()
        configure(session)
        let recorder = SessionRecorder(session)
        session.locationSource = location
        session.startRunning()
        try await recorder.waitForPhase(\.isRunning)
        guard let device = factory.latest else { throw NoDevice() }
        return RunningSession(factory: factory, session: session, recorder: recorder, device: device)
    }

    package struct NoDevice: Error {}
}
