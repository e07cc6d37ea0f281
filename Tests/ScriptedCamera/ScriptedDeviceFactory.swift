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

    /// A session whose devices come from this factory.
    public func makeSession(devicePath: String = "/dev/video-scripted") -> CaptureSession {
        let session = CaptureSession(
            openDriver: { path, libv4l2 throws(SystemCallError) in try self.open(path, libv4l2) },
            probe: AccessProbe(open: { path throws(SystemCallError) in try self.open(path, false) }))
        // The default frame timeout (5 s): a scripted device owes a frame only once its test has
        // emitted one (`ScriptedVideoDevice.frameOwedSince`), so a test's pace cannot fail it.
        session.configuration = CaptureConfiguration(devicePath: devicePath)
        return session
    }
}
