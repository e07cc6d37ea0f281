import ArcaptureCore
@_spi(Testing) import CaptureKit

/// Opens ``ScriptedVideoDevice``s for a session under test, and remembers each one (and whether it
/// was opened through libv4l2), so a test can drive the device the session is using.
@_spi(Testing) public final class ScriptedDeviceFactory: Sendable {
    private let opened = Locked<[ScriptedVideoDevice]>([])
    private let script: Locked<ScriptedVideoDevice.Script>
    private let openFailure: Locked<Errno?>

    /// Creates a factory that opens devices playing `script`.
    public init(script: ScriptedVideoDevice.Script = ScriptedVideoDevice.Script(), openFailure: Errno? = nil) {
        self.script = Locked(script)
        self.openFailure = Locked(openFailure)
    }

    /// Every device opened so far, oldest first.
    public var devices: [ScriptedVideoDevice] { opened.withLock { $0 } }

    /// The most recently opened device.
    public var latest: ScriptedVideoDevice? { opened.withLock { $0.last } }

    /// Changes the script for devices opened from now on.
    public func updateScript(_ change: (inout ScriptedVideoDevice.Script) -> Void) { script.withLock { change(&$0) } }

    /// The opener to hand to `CaptureSession(openDriver:probe:)`.
    public func open(_ path: String, _ usesLibV4L2: Bool) throws(SystemCallError) -> any VideoDeviceDriver {
        if let failure = openFailure.withLock({ $0 }) { throw SystemCallError(call: "open", errno: failure) }
        let device = ScriptedVideoDevice(path: path, script: script.withLock { $0 }, usesLibV4L2: usesLibV4L2)
        opened.withLock { $0.append(device) }
        return device
    }

    /// The frame timeout of a session under test that is not about stalls: an hour, so that it
    /// never fires.
    ///
    /// A scripted device sends frames when the test says so, so its test's task must run between
    /// two frames. The default 5 s timeout once fired between two frames of tests that were not
    /// about stalls, and then 120 s did too, under AddressSanitizer in CI (2026-12-04: trivial tests
    /// reported 196 s): Swift Testing runs tests on the cooperative pool (two threads here), and
    /// many held theirs waiting for child processes. Every program a test runs is now waited for
    /// off the pool (`ProcessRunner`, `OffPool`), but 30 s still fired (2026-12-06, the suite beside
    /// a fuzzing run: three `StaleBufferTests` sessions failed with no frame, their tasks not run
    /// for 30 s): synchronous tests that compute for long hold both pool threads. Until those run
    /// off the pool too, an hour. The stall test sets its own.
    public static let patientFrameTimeout: Duration = .seconds(3600)

    /// A session whose devices come from this factory.
    public func makeSession(devicePath: String = "/dev/video-scripted") -> CaptureSession {
        let session = CaptureSession(
            openDriver: { path, libv4l2 throws(SystemCallError) in try self.open(path, libv4l2) },
            probe: AccessProbe(open: { path throws(SystemCallError) in try self.open(path, false) }))
        session.configuration = CaptureConfiguration(devicePath: devicePath, frameTimeout: Self.patientFrameTimeout)
        return session
    }
}
