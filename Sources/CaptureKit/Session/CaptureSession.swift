import ArcaptureCore
import Dispatch
import Positioning

/// Captures frames from one V4L2 camera, AVCaptureSession's counterpart.
///
/// A session owns its device, buffers and state on one private serial queue. Configure it with
/// ``beginConfiguration()``, changes to ``configuration``, and ``commitConfiguration()``; assign a
/// ``locationSource``; then ``startRunning()``. Frames arrive at the handler set with
/// ``setFrameHandler(_:)``; phase changes at every observer added with ``addPhaseObserver(_:)``.
///
/// ```swift
/// let session = CaptureSession()
/// session.beginConfiguration()
/// session.configuration.devicePath = "/dev/video0"
/// session.configuration.format = FormatRequest(size: FrameSize(width: 1280, height: 720), framesPerSecond: 30)
/// session.commitConfiguration()
/// session.setFrameHandler { frame in print(frame.sequence) }
/// session.locationSource = NoPositionSource()   // capture starts only once a source is assigned
/// session.startRunning()
/// ```
///
/// Rules carried over from AVFoundation and the geo-AR view:
/// - ``startRunning()`` and ``stopRunning(completion:)`` never block the caller's thread; they
///   queue the work and return. Both are idempotent.
/// - Streaming happens only while a location source is assigned. Without one the session waits in
///   ``CapturePhase/waitingForLocationSource``; removing the source stops capture.
/// - Stopping releases everything: `VIDIOC_STREAMOFF`, `munmap`, `VIDIOC_REQBUFS` with 0, `close`.
/// - Observers compose (adding two runs both); the frame handler is a single binding (the last set
///   wins).
/// - A running session keeps itself alive until it stops; stop it explicitly.
///
/// `@unchecked Sendable`: mutable state is split between the session queue (device and stream:
/// `queue`) and a `Locked` (configuration, observers, handler, phase, statistics), as each
/// property's comment says.
public final class CaptureSession: @unchecked Sendable {
    /// The serial queue that owns the device. Frame handlers and observers run on it.
    let queue = DispatchQueue(label: "arcapture.capture-session")
    let openDriver: @Sendable (String, Bool) throws(SystemCallError) -> any VideoDeviceDriver
    let probe: AccessProbe

    // Guarded by `queue`:
    var machine = CaptureStateMachine()
    var stream: ActiveStream?
    var appliedConfiguration = CaptureConfiguration()
    /// Streams whose readiness watcher is stopping; each closes its driver when its watcher is done.
    var closingStreams: [ObjectIdentifier: ActiveStream] = [:]
    var closeWaiters: [@Sendable () -> Void] = []
    /// The stable link (`/dev/v4l/by-id/…`, else `by-path`) of the camera last opened, to find it
    /// again after an interruption even if its `/dev/videoN` number changed.
    var stablePath: String?
    /// The waiter watching for the camera during an interruption.
    var deviceWaiter: NodeAppearanceWaiter?

    // Guarded by the mutex:
    let shared = Locked(SharedState())

    struct SharedState: ~Copyable {
        var configuration = CaptureConfiguration()
        var configurationDepth = 0
        var locationSource: (any LocationSource)?
        var locationObservation: LocationObservation?
        var locationStatus: LocationStatus = .notRequired
        var phase: CapturePhase = .idle
        var phaseObservers: [Int: @Sendable (CapturePhase) -> Void] = [:]
        var rejectionObservers: [Int: @Sendable (FrameRejection) -> Void] = [:]
        var nextObserverID = 0
        var frameHandler: (@Sendable (VideoFrame) -> Void)?
        var outputs: [any CaptureOutput] = []
        var statistics = CaptureStatistics()
    }

    /// Creates a session for real V4L2 devices.
    public convenience init() {
        self.init(
            openDriver: { path, libv4l2 throws(SystemCallError) in
                try KernelVideoDevice.open(path, usesLibV4L2: libv4l2)
            }, probe: AccessProbe())
    }

    /// Creates a session over a canvas rather than a camera: blank frames of `size` at
    /// `framesPerSecond`, for a program that draws everything it shows itself (a map view with no
    /// camera of its own). Its ``configuration`` names the device `canvas`; the session runs, is
    /// observed and stops as for a camera. Nil for a size or rate a canvas cannot have
    /// (``canvasProblem(size:framesPerSecond:)`` says why).
    public convenience init?(canvas size: FrameSize, framesPerSecond: Double) {
        guard Self.canvasProblem(size: size, framesPerSecond: framesPerSecond) == nil,
            let interval = FrameInterval(framesPerSecond: framesPerSecond)
        else { return nil }
        self.init(
            openDriver: { path, _ throws(SystemCallError) in
                try CanvasVideoDevice.open(path: path, size: size, interval: interval)
            }, probe: AccessProbe())
        configuration = CaptureConfiguration(
            devicePath: "canvas",
            format: FormatRequest(pixelFormat: .yuyv, size: size, framesPerSecond: framesPerSecond))
    }

    /// Why a canvas cannot have this size or rate, or nil: its width is even (two pixels share a
    /// YUYV pair), both sides 2–16384 pixels, its rate 0.01–240 frames a second.
    public static func canvasProblem(size: FrameSize, framesPerSecond: Double) -> String? {
        if !(2...16384).contains(size.width) || !(2...16384).contains(size.height) || size.width % 2 != 0 {
            return "a canvas is 2 to 16384 pixels each way, its width even; \(size.width)x\(size.height) is not"
        }
        if !(0.01...240).contains(framesPerSecond) || FrameInterval(framesPerSecond: framesPerSecond) == nil {
            return "a canvas ticks at 0.01 to 240 frames a second; \(framesPerSecond) is not"
        }
        return nil
    }

    /// Creates a session over another driver (the scripted fake device in unit tests).
    @_spi(Testing) public init(
        openDriver: @escaping @Sendable (String, Bool) throws(SystemCallError) -> any VideoDeviceDriver,
        probe: AccessProbe
    ) {
        self.openDriver = openDriver
        self.probe = probe
    }

    // MARK: Configuration

    /// The configuration. Setting it outside a begin/commit pair applies it at once.
    ///
    /// This property is thread-safe.
    public var configuration: CaptureConfiguration {
        get { shared.withLock { $0.configuration } }
        set {
            let applyNow = shared.withLock { state in
                state.configuration = newValue
                return state.configurationDepth == 0
            }
            if applyNow { scheduleConfigurationApply() }
        }
    }

    /// Starts a batch of configuration changes, applied together by ``commitConfiguration()``.
    /// Pairs nest.
    ///
    /// This method is thread-safe.
    public func beginConfiguration() {
        shared.withLock { $0.configurationDepth += 1 }
    }

    /// Applies the changes made since the matching ``beginConfiguration()``; a running stream
    /// restarts once if they change the device or format.
    ///
    /// This method is thread-safe.
    public func commitConfiguration() {
        let applyNow = shared.withLock { state in
            precondition(state.configurationDepth > 0, "commitConfiguration() without beginConfiguration()")
            state.configurationDepth -= 1
            return state.configurationDepth == 0
        }
        if applyNow { scheduleConfigurationApply() }
    }

    private func scheduleConfigurationApply() {
        queue.async { [self] in
            let next = shared.withLock { $0.configuration }
            guard next != appliedConfiguration else { return }
            var withoutControls = next
            withoutControls.controls = appliedConfiguration.controls
            let onlyControls = withoutControls == appliedConfiguration
            if next.devicePath != appliedConfiguration.devicePath { stablePath = nil }  // another camera
            appliedConfiguration = next
            machine.reconnects = next.reconnects
            guard onlyControls, let stream else {
                perform(machine.configurationChanged())
                return
            }
            // Controls change on the open device; the stream goes on.
            let result = Result { () throws(CaptureError) in
                try apply(next.controls, to: stream.driver, path: stream.driver.path)
            }
            if case .failure(let error) = result { perform(machine.streamFailed(error)) }
        }
    }

    /// Sets controls on the running device now, and keeps them in ``configuration`` so they are set
    /// again whenever the stream restarts (after a camera switch or reconnection).
    ///
    /// This method is thread-safe; the work runs on the session queue.
    ///
    /// - Returns: what each control was set to.
    /// - Throws: ``CaptureError/controlFailed(path:_:)``, or ``CaptureError/invalidConfiguration(_:)``
    ///   when nothing is streaming.
    public func applyControls(_ settings: [ControlSetting]) async throws(CaptureError) -> [AppliedControl] {
        let result: Result<[AppliedControl], CaptureError> = await withCheckedContinuation { continuation in
            queue.async { [self] in
                guard let stream else {
                    continuation.resume(
                        returning: .failure(.invalidConfiguration("no stream is running to set controls on")))
                    return
                }
                let result = Result { () throws(CaptureError) in
                    try apply(settings, to: stream.driver, path: stream.driver.path)
                }
                if case .success = result {
                    let merged = Self.merging(settings, into: appliedConfiguration.controls)
                    appliedConfiguration.controls = merged
                    shared.withLock { $0.configuration.controls = merged }
                }
                continuation.resume(returning: result)
            }
        }
        return try result.get()
    }

    /// `existing` with each of `settings` replacing the setting for the same control (or appended).
    static func merging(_ settings: [ControlSetting], into existing: [ControlSetting]) -> [ControlSetting] {
        var merged = existing
        for setting in settings {
            if let index = merged.firstIndex(where: { $0.target == setting.target }) {
                merged[index] = setting
            } else {
                merged.append(setting)
            }
        }
        return merged
    }

    // MARK: Location source

    /// Where the session's position comes from. Streaming happens only while one is assigned:
    /// assigning one to a started session starts capture, and setting nil stops it.
    ///
    /// Assigning a source starts it; replacing or removing it stops the previous one. Until the
    /// source has a position, a streaming session is ``CapturePhase/waitingForLocation(_:)`` and its
    /// frames say so (``VideoFrame/locationStatus``).
    ///
    /// This property is thread-safe.
    public var locationSource: (any LocationSource)? {
        get { shared.withLock { $0.locationSource } }
        set {
            let (previous, previousObservation) = shared.withLock { state in
                defer {
                    state.locationSource = newValue
                    state.locationObservation = nil
                    state.locationStatus = newValue?.status ?? .notRequired
                }
                return (state.locationSource, state.locationObservation)
            }
            previousObservation?.cancel()
            if let previous, previous !== newValue { previous.stop() }
            guard let source = newValue else {
                queue.async { [self] in perform(machine.locationSourceRemoved()) }
                return
            }
            let observation = source.addObserver { [weak self] event in
                guard case .status(let status) = event, let self else { return }
                self.shared.withLock { $0.locationStatus = status }
                self.queue.async {
                    self.perform(self.machine.locationStatusChanged(hasPosition: status.isPositionReady))
                }
            }
            shared.withLock { $0.locationObservation = observation }
            // Started first, so a source with a position at once (a fixed one) streams straight to
            // running; whatever its status says after starting is the newest, whichever order the
            // queue sees it and the status events in.
            source.start()
            let ready = source.status.isPositionReady
            queue.async { [self] in perform(machine.locationSourceAssigned(hasPosition: ready)) }
        }
    }

    // MARK: Running

    /// Starts capture on the session queue and returns at once. Idempotent.
    ///
    /// Without a location source the session waits in ``CapturePhase/waitingForLocationSource``.
    /// Errors arrive as ``CapturePhase/failed(_:)``.
    ///
    /// This method is thread-safe.
    public func startRunning() {
        queue.async { [self] in
            appliedConfiguration = shared.withLock { $0.configuration }
            machine.reconnects = appliedConfiguration.reconnects
            perform(machine.startRunning())
        }
    }

    /// Stops capture on the session queue and returns at once. Idempotent.
    ///
    /// This method is thread-safe.
    ///
    /// - Parameter completion: called on the session queue once the device is closed.
    public func stopRunning(completion: (@Sendable () -> Void)? = nil) {
        queue.async { [self] in
            perform(machine.stopRunning())
            whenClosed { completion?() }
        }
    }

    /// Stops capture and waits until the device is closed.
    ///
    /// This method is thread-safe.
    public func stop() async {
        await withCheckedContinuation { continuation in
            stopRunning { continuation.resume() }
        }
    }

    /// The current phase.
    ///
    /// This property is thread-safe.
    public var phase: CapturePhase { shared.withLock { $0.phase } }

    /// Counts for the current (or last) stream.
    ///
    /// This property is thread-safe.
    public var statistics: CaptureStatistics { shared.withLock { $0.statistics } }

    // MARK: Observers and handlers

    /// Adds an observer of phase changes, called on the session queue for every change. Observers
    /// compose: adding two runs both.
    ///
    /// This method is thread-safe.
    ///
    /// - Returns: a token for ``removeObserver(_:)``.
    @discardableResult
    public func addPhaseObserver(_ observer: @escaping @Sendable (CapturePhase) -> Void) -> ObserverToken {
        shared.withLock { state in
            state.nextObserverID += 1
            state.phaseObservers[state.nextObserverID] = observer
            return ObserverToken(id: state.nextObserverID)
        }
    }

    /// Adds an observer of dropped, damaged frames, called on the session queue. Observers compose.
    ///
    /// This method is thread-safe.
    @discardableResult
    public func addRejectionObserver(_ observer: @escaping @Sendable (FrameRejection) -> Void) -> ObserverToken {
        shared.withLock { state in
            state.nextObserverID += 1
            state.rejectionObservers[state.nextObserverID] = observer
            return ObserverToken(id: state.nextObserverID)
        }
    }

    /// Removes an observer added by ``addPhaseObserver(_:)`` or ``addRejectionObserver(_:)``.
    ///
    /// This method is thread-safe.
    public func removeObserver(_ token: ObserverToken) {
        shared.withLock { state in
            state.phaseObservers[token.id] = nil
            state.rejectionObservers[token.id] = nil
        }
    }

    /// Sets the handler for captured frames, replacing any earlier one (a single binding: two
    /// handlers would be two owners of each frame). It runs on the session queue after the buffer is
    /// returned to the driver; a slow handler delays the next dequeue, so hand heavy work off.
    ///
    /// This method is thread-safe.
    public func setFrameHandler(_ handler: (@Sendable (VideoFrame) -> Void)?) {
        shared.withLock { $0.frameHandler = handler }
    }

    /// Attaches an output (such as GeoAR's photo output), which then receives every frame the
    /// session delivers. Outputs compose: several may be attached.
    ///
    /// This method is thread-safe.
    public func addOutput(_ output: any CaptureOutput) {
        output.attached()
        shared.withLock { $0.outputs.append(output) }
    }

    /// The phases from now on, as an async sequence (an observer that ends with the sequence).
    ///
    /// This method is thread-safe.
    public func phases() -> AsyncStream<CapturePhase> {
        let (stream, continuation) = AsyncStream.makeStream(of: CapturePhase.self)
        let token = addPhaseObserver { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        return stream
    }
}

/// Identifies an observer for removal.
public struct ObserverToken: Hashable, Sendable {
    let id: Int
}
