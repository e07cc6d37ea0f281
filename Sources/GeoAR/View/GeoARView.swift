import ARCompositor
import ArcaptureCore
import CaptureKit
import Dispatch
import Foundation
import Positioning

/// The handle to a running geo-AR pipeline: frames from a camera or footage, each posed at its
/// time from the location source, annotated with the session's map data, and written to the
/// configured outputs. The counterpart of the geo-AR SDK's `GeoARView`.
///
/// The seed's rules, carried to Linux:
/// - **Capture starts when a location source is assigned** (``locationManager``), not when the view
///   is created or presented; setting it to nil stops capture and closes the camera.
/// - Camera authorization is settled before the view is loaded: `AuthorizationStatus/notDetermined`
///   is waited for (up to ``GeoARConfiguration/authorizationTimeout``), denied and restricted fail
///   with the fix named.
/// - **Observers compose** (``onLoaded(_:)``, ``onFailed(_:)``, ``onPhaseChange(_:)``,
///   ``userCoordinate(_:)``: adding one twice runs both); **bindings are single**
///   (``navigationInfo(_:)``, ``selectedPOIs(_:)``: binding twice keeps only the last).
/// - ``navigationInfo(_:)`` is reset to nil when navigation stops or arrives; ``selectedPOIs(_:)``
///   works both ways (set it from code: highlighted from the next frame; with
///   ``GeoARConfiguration/selectsCenter``, the view's own selection is written back).
/// - One view of each kind per session: a second takes the renderer slot, and this one keeps drawing
///   frames but stops receiving updates (its handlers and bindings are no longer called).
/// - There is no camera binding: the camera follows the device's pose.
/// - Subclass it and build the subclass through ``GeoAR``'s factory closure; nothing in the library
///   keeps the view once its pipeline has stopped.
///
/// Threading: handlers run on ``GeoARConfiguration/handlerQueue`` (the main queue unless said),
/// never on the capture session's queue. The view's own queue runs presentation, location source
/// changes and stopping; the live capture's writer queue draws frames. Public methods are
/// thread-safe.
open class GeoARView: @unchecked Sendable {
    /// How a view's pipeline ended.
    public enum Ending: Sendable {
        /// The footage was read to its end, or a capture reached its count or duration.
        case completed
        /// ``stop()`` was called.
        case stopped
        /// The program reading the stream on stdout closed it.
        case readerClosed
        /// It failed.
        case failed(GeoARError)
    }

    /// What a view did, once it has ended.
    public struct Summary: Sendable {
        /// How it ended.
        public var ending: Ending
        /// A camera view's counts (nil for footage).
        public var live: LiveCapture.Counts?
        /// How the live capture itself ended, for statuses finer than ``ending`` (a full disk, a
        /// busy camera).
        public var liveOutcome: LiveCapture.Outcome?
        /// A footage view's result (nil for a camera).
        public var footage: FootagePipeline.Summary?
    }

    /// The part of the output frames the view draws into.
    public let frame: ViewFrame
    /// The session whose map data, selection and navigation the view shares.
    public let session: ARSession
    /// How the view was built.
    public let configuration: GeoARConfiguration
    /// Where the view's position comes from; assigning a source starts capture.
    public let locationManager = LocationManager()

    /// Which renderer slot of the session the view takes.
    open var kind: ViewKind { .augmentedReality }

    /// The view's own queue: presentation, location source changes, stopping.
    let control = DispatchQueue(label: "arcapture.geoar-view")
    private let handlers = Locked(Handlers())
    private let state = Locked(State())
    private let ending = OutcomeLatch<Summary>()
    private let tracker: LivePoseTracker
    /// Whether the view took its session's slot (a view failing at present never does). Its own
    /// lock: read while `state`'s is held.
    private let claimedSlot = Locked(false)
    /// ``capturePhoto(quality:)``'s requests, answered by the frame stage.
    let photos = PendingPhotos()
    /// ``zoomFactor``: set from any thread, read by the frame stage for each frame.
    let zoomSetting = Locked(1.0)

    private struct Handlers {
        var loaded: [@Sendable (GeoARView) -> Void] = []
        var failed: [@Sendable (GeoARError) -> Void] = []
        var phases: [@Sendable (LoadPhase) -> Void] = []
        var coordinates: [@Sendable (GeodeticCoordinate) -> Void] = []
        /// ``phases`` and ``userCoordinates`` being iterated, finished when the view ends.
        var phaseStreams: [AsyncStream<LoadPhase>.Continuation] = []
        var coordinateStreams: [AsyncStream<GeodeticCoordinate>.Continuation] = []
        var streamsFinished = false
        var navigation: GeoARBinding<NavigationInfo?>?
        var selection: GeoARBinding<Set<String>>?
        var selectionVersionSeen = -1
    }

    private struct State {
        var phase: LoadPhase?
        var presented = false
        var loaded = false
        var ended = false
        var streaming = false
        var hasPosition = false
        var locationStatus: LocationStatus?
        var camera: CameraRun?
        var footageStop: StopRequest?
        var footageStarted = false
        var observations: [LocationObservation] = []
        var navigation: NavigationInfo??
    }

    /// A camera view's pipeline while it runs.
    private struct CameraRun {
        var session: CaptureSession
        var capture: LiveCapture
    }

    /// Creates a view; nothing happens until ``present()`` (``GeoAR/present()`` calls it).
    ///
    /// Subclasses override this initialiser and are built through ``GeoAR``'s factory closure.
    public required init(frame: ViewFrame, session: ARSession, configuration: GeoARConfiguration) {
        self.frame = frame
        self.session = session
        self.configuration = configuration
        tracker = LivePoseTracker(options: configuration.pose)
        locationManager.onChange { [weak self] source in
            guard let self else { return }
            control.async { self.locationSourceChanged(to: source) }
        }
    }

    // MARK: Handlers and bindings

    /// Adds a handler for the loaded view: called once, when the map data is loaded and the camera
    /// authorized. Handlers compose.
    public func onLoaded(_ handler: @escaping @Sendable (GeoARView) -> Void) {
        handlers.withLock { $0.loaded.append(handler) }
    }

    /// Adds a handler for the failure, if loading or running fails. Handlers compose.
    public func onFailed(_ handler: @escaping @Sendable (GeoARError) -> Void) {
        handlers.withLock { $0.failed.append(handler) }
    }

    /// Adds a handler for every ``LoadPhase`` transition, in order. Handlers compose.
    public func onPhaseChange(_ handler: @escaping @Sendable (LoadPhase) -> Void) {
        handlers.withLock { $0.phases.append(handler) }
    }

    /// Adds a handler for the user's position, each time it updates (each fix; for footage, each
    /// frame's position). Handlers compose.
    public func userCoordinate(_ handler: @escaping @Sendable (GeodeticCoordinate) -> Void) {
        handlers.withLock { $0.coordinates.append(handler) }
    }

    /// The view's phases from now on, for a `for await` loop: what ``onPhaseChange(_:)`` handlers
    /// hear, yielded as they happen (not through ``GeoARConfiguration/handlerQueue``, so a program
    /// that never runs the main queue still gets them); the sequence ends after the last phase
    /// (stopped, failed, interrupted), at once when the view has ended.
    public var phases: AsyncStream<LoadPhase> { stream(\.phaseStreams, buffering: .unbounded) }

    /// The user's positions from now on (each fix; for footage, each frame's position), for a
    /// `for await` loop: what ``userCoordinate(_:)`` handlers hear, yielded as they come; the
    /// sequence ends when the view does.
    public var userCoordinates: AsyncStream<GeodeticCoordinate> {
        stream(\.coordinateStreams, buffering: .bufferingNewest(64))
    }

    /// A sequence kept in `streams` until the view ends (finished at once when it has).
    private func stream<Element>(
        _ streams: WritableKeyPath<Handlers, [AsyncStream<Element>.Continuation]>,
        buffering: AsyncStream<Element>.Continuation.BufferingPolicy
    ) -> AsyncStream<Element> {
        AsyncStream(bufferingPolicy: buffering) { continuation in
            let finished = handlers.withLock { handlers -> Bool in
                if !handlers.streamsFinished { handlers[keyPath: streams].append(continuation) }
                return handlers.streamsFinished
            }
            if finished { continuation.finish() }
        }
    }

    /// Binds navigation info (remaining distance and time, the next manoeuvre): set as it changes,
    /// reset to nil when navigation stops or arrives. Single: a second binding replaces the first.
    public func navigationInfo(_ binding: GeoARBinding<NavigationInfo?>) {
        handlers.withLock { $0.navigation = binding }
    }

    /// Binds the selected points of interest's ids, both ways. Single: a second binding replaces
    /// the first.
    public func selectedPOIs(_ binding: GeoARBinding<Set<String>>) {
        handlers.withLock { handlers in
            handlers.selection = binding
            handlers.selectionVersionSeen = -1
        }
    }

    /// Selects points of interest from code: highlighted from the next frame, in this view and the
    /// session's other view.
    public func select(_ ids: Set<String>) {
        let binding = handlers.withLock { $0.selection }
        if let binding {
            binding.value = ids
        } else if !isDisplaced {
            session.setSelection(ids)
        }
    }

    /// A selection the view's user made (the live page's `/select`): the session's, and the
    /// binding's, told to the program's ``GeoARBinding/onChange(on:_:)`` handlers, as the view's
    /// own choices are (a value set from code is not; this one comes from a person, whom the
    /// program has not heard). A displaced view's user changes nothing.
    package func userSelected(_ ids: Set<String>) {
        guard !isDisplaced else { return }
        session.setSelection(ids)
        let binding = handlers.withLock { $0.selection }
        if let binding, receivesUpdates, binding.update(ids, notify: true) {
            handlers.withLock { $0.selectionVersionSeen = binding.version }
        }
    }

    /// What is wrong with the view's ``frame``: fractions outside the output frame, or an AR view
    /// given less than the whole frame.
    private var frameProblem: GeoARError? {
        if let problem = frame.problem { return .configuration(problem) }
        if kind == .augmentedReality, case .canvas = configuration.source {
            return .configuration(
                "an AR view draws over a camera's picture, and a canvas has none: give it .camera(…) or footage, "
                    + "and the canvas to a map view (GeoMapView)")
        }
        guard kind == .augmentedReality, frame != .full else { return nil }
        return .configuration(
            "an AR view draws over the whole frame (its overlay is projected through the camera's whole picture): "
                + "build it with ViewFrame.full, and give a part of the frame to a map view (GeoMapView) instead")
    }

    /// Whether the view's handlers and sequences hear its events: while it holds its session's
    /// slot, and, for a view that failed when presented (before taking one), its own failure.
    private var hearsItsEvents: Bool {
        !claimedSlot.withLock { $0 } || session.holdsSlot(kind, self)
    }

    /// Whether a newer view of this kind took the session's slot: this one then keeps drawing but
    /// writes nothing to the session (selection, navigation), whose state is the newer view's.
    private var isDisplaced: Bool { session.isDisplaced(kind, self) }

    // MARK: Life

    /// The current phase (nil before ``present()``).
    public var phase: LoadPhase? { state.withLock { $0.phase } }

    /// Whether the view holds its session's renderer slot (and so receives updates).
    public var receivesUpdates: Bool { session.holdsSlot(kind, self) }

    /// Starts the view: loads the session's map data, settles camera authorization, prepares the
    /// outputs, calls ``onLoaded(_:)`` handlers and waits for a location source. Returns at once;
    /// idempotent.
    public func present() {
        // Before the queue runs it: a photo asked for right after present() waits for a frame.
        photos.open()
        control.async { [self] in presentNow() }
    }

    /// Stops the pipeline and waits until every file is whole. Idempotent.
    public func stop() async {
        await withCheckedContinuation { continuation in
            control.async { [self] in
                stopNow(.stopped) { continuation.resume() }
            }
        }
    }

    /// Waits until the pipeline ends (footage read, a count reached, ``stop()``, a failure) and
    /// returns what it did. It only watches: cancelling the task that awaits it leaves the view
    /// running (several parts of a program may wait for one view); ``run()`` is the form whose
    /// cancellation stops it.
    public func ended() async -> Summary { await ending.wait() }

    /// Presents the view and returns when it ends, with what it did, as ``present()`` then
    /// ``ended()``; cancelling the task that awaits it stops the view as ``stop()`` does (the
    /// camera closes, every file is made whole) and returns that stop's summary. The shape of a
    /// service's `run()` in structured concurrency (swift-service-lifecycle's `Service`), without
    /// depending on it:
    ///
    /// ```swift
    /// let running = Task { await view.run() }
    /// // … on SIGTERM:
    /// running.cancel()
    /// let summary = await running.value
    /// ```
    public func run() async -> Summary {
        present()
        return await withTaskCancellationHandler {
            await ended()
        } onCancel: {
            control.async { [self] in stopNow(.stopped) {} }
        }
    }

    /// Moves a camera view to the next of its configuration's cameras (`LiveCaptureSettings`'s
    /// devices), keeping the stream going.
    public func switchToNextCamera() {
        state.withLock { $0.camera }?.capture.switchToNextDevice()
    }

    /// A camera view's counts so far (nil for footage, or before the camera opens).
    public var liveCounts: LiveCapture.Counts? { state.withLock { $0.camera }?.capture.runningCounts }

    /// When the view was created, for rates.
    public let startedAt = ContinuousClock.now

    /// The camera's format, once it streams (nil for footage).
    public var cameraFormat: NegotiatedFormat? {
        switch state.withLock({ $0.camera })?.session.phase {
        case .running(let format), .waitingForLocation(let format): format
        default: nil
        }
    }

    /// The newest fix the view has (nil before the first, and for footage).
    public var latestFix: LocationFix? { tracker.latestFix ?? locationManager.locationSource?.latestFix }

    /// The location source's status, as the view last heard it.
    public var locationStatus: LocationStatus? { state.withLock { $0.locationStatus } }

    // MARK: Presenting (the view's queue)

    private func presentNow() {
        dispatchPrecondition(condition: .onQueue(control))
        let first = state.withLock { state -> Bool in
            defer { state.presented = true }
            return !state.presented
        }
        guard first else { return }
        PresentedViews.shared.keep(self)
        if let problem = configuration.problem ?? frameProblem {
            // Before the slot: a view that cannot run must not displace one that does.
            fail(problem)
            return
        }
        claimedSlot.withLock { $0 = true }
        if session.claimSlot(kind, for: self) != nil {
            configuration.messages.error(
                "a second \(kind) on one session took its renderer slot: the first keeps drawing frames but no "
                    + "longer receives updates; give the second view its own session")
        }
        setPhase(.loadingMapData)
        do {
            try session.load()
        } catch {
            fail(.mapData(error))
            return
        }
        if case .camera(let camera) = configuration.source {
            setPhase(.waitingForCameraAuthorization)
            let path = camera.devicePath ?? "/dev/video0"
            let hooks = configuration.cameraHooks
            let authorization = hooks.authorize(path)
            let timeout = configuration.authorizationTimeout
            if authorization.status == .notDetermined && timeout > .zero {
                // An absent camera (one being plugged in, a board booting before its camera) is
                // waited for off the view's queue, which stays free for stop() meanwhile.
                Task.detached { [self] in
                    _ = await hooks.requestAccess(path, timeout)
                    control.async { [self] in cameraAuthorized(camera, hooks.authorize(path)) }
                }
                return
            }
            cameraAuthorized(camera, authorization)
            return
        }
        if case .canvas(let size, let rate) = configuration.source {
            // No device to authorize: the canvas is the process's own.
            do throws(GeoARError) {
                // The configuration's problem has refused a canvas this cannot make.
                guard let canvas = CaptureSession(canvas: size, framesPerSecond: rate) else {
                    throw .configuration(
                        CaptureSession.canvasProblem(size: size, framesPerSecond: rate) ?? "no canvas of \(size)")
                }
                try prepareCamera(canvas.configuration, session: canvas)
            } catch {
                fail(error)
                return
            }
        }
        finishPresenting()
    }

    /// Goes on presenting a camera view once its authorization is settled.
    private func cameraAuthorized(_ camera: CaptureConfiguration, _ authorization: Authorization) {
        dispatchPrecondition(condition: .onQueue(control))
        // Stopped while the camera was waited for: nothing more to do.
        guard !state.withLock({ $0.ended }) else { return }
        guard authorization.status == .authorized else {
            fail(.cameraUnauthorized(authorization.status, authorization.message))
            return
        }
        do {
            try prepareCamera(camera)
        } catch {
            fail(error)
            return
        }
        finishPresenting()
    }

    /// The view is loaded: `onLoaded` handlers, then the wait for a location source.
    private func finishPresenting() {
        dispatchPrecondition(condition: .onQueue(control))
        state.withLock { $0.loaded = true }
        let loaded = handlers.withLock { $0.loaded }
        deliver { [self] in for handler in loaded { handler(self) } }
        setPhase(.waitingForLocationSource)
        if let source = locationManager.locationSource { locationSourceChanged(to: source) }
    }

    /// Makes the capture session, the outputs and the overlay stage; the camera opens when a
    /// location source is assigned.
    private func prepareCamera(_ camera: CaptureConfiguration, session made: CaptureSession? = nil)
        throws(GeoARError)
    {
        let destination: CaptureDestination
        let device = camera.devicePath ?? "/dev/video0"
        var settings = LiveCaptureSettings(devices: [device])
        var logPath: String?
        switch configuration.output {
        case .live(let chosen, let live, let jsonLog):
            destination = chosen
            settings = live
            logPath = jsonLog
        case .footage, .none:
            destination = .discard
        }
        // A canvas's settings name no devices (the configuration's problem refuses others).
        if made != nil { settings.devices = [device] }
        let writer: CaptureOutputWriter
        let log: JSONLinesLog?
        let sidecar: JSONLinesLog?
        let annotator: LiveAnnotator
        do {
            writer = try CaptureOutputWriter(
                destination: destination, quality: configuration.quality, restartRows: configuration.restartRows)
            annotator = try LiveAnnotator(
                geometry: configuration.camera, navigates: configuration.navigates, map: configuration.minimap,
                mapOnly: kind == .map, mapFrame: frame, splices: configuration.splices && writer.takesJPEG)
        } catch {
            throw .configuration("libjpeg-turbo could not be set up: \(error)")
        }
        if writer.counterOffset > 0, case .files(let template) = destination {
            configuration.messages.note(
                "note: '\(template.pattern)': frames up to \(writer.counterOffset) are there already; "
                    + "this run numbers its frames from \(writer.counterOffset + 1)")
        }
        do {
            try writer.checkDestination()
            log = try logPath.map(JSONLinesLog.init)
            sidecar = try configuration.sidecar.map(JSONLinesLog.init)
        } catch {
            throw .output(error)
        }
        let captureSession = made ?? configuration.cameraHooks.makeSession()
        captureSession.configuration = camera
        let stage = ViewFrameStage(view: self, tracker: tracker, annotator: annotator)
        let capture = LiveCapture(
            settings: settings, session: captureSession, writer: writer, log: log, sidecar: sidecar, stage: stage,
            messages: configuration.messages)
        capture.attach(to: captureSession)
        captureSession.addPhaseObserver { [weak self] phase in self?.capturePhaseChanged(phase) }
        state.withLock { $0.camera = CameraRun(session: captureSession, capture: capture) }
        captureSession.startRunning()
        capture.whenEnded { [weak self] outcome in
            guard let self else { return }
            control.async { [self] in captureEnded(outcome) }
        }
    }

    // MARK: Location source (the view's queue)

    private func locationSourceChanged(to source: (any LocationSource)?) {
        dispatchPrecondition(condition: .onQueue(control))
        let (loaded, ended, camera) = state.withLock { ($0.loaded, $0.ended, $0.camera) }
        guard loaded, !ended else { return }
        let previous = state.withLock { state in
            defer { state.observations = [] }
            return state.observations
        }
        for observation in previous { observation.cancel() }
        var observations: [LocationObservation] = []
        if let source {
            observations.append(tracker.observe(source))
            observations.append(source.addObserver { [weak self] event in self?.locationEvent(event) })
            for poseSource in locationManager.poseSources {
                observations.append(tracker.observe(poseSource))
                poseSource.start()
            }
        }
        state.withLock { $0.observations = observations }
        if let camera {
            // The capture session starts the source (and stops the one it replaces); without a
            // source it closes the camera and waits.
            camera.session.locationSource = source
        } else if let (paths, timing) = configuration.source.footageFiles {
            if let source {
                startFootage(paths: paths, timing: timing, source: source)
            } else {
                state.withLock { $0.footageStop }?.request()
            }
        }
    }

    private func locationEvent(_ event: LocationEvent) {
        switch event {
        case .fix(let fix):
            deliverCoordinate(fix.coordinate)
        case .status(let status):
            control.async { [self] in positionStatusChanged(status) }
        case .orientation, .warning:
            break
        }
    }

    // MARK: Phases

    /// Follows the capture session (on its queue): the phase moves on the view's queue.
    private func capturePhaseChanged(_ phase: CapturePhase) {
        control.async { [self] in
            switch phase {
            case .idle:
                break
            case .waitingForLocationSource:
                state.withLock { $0.streaming = false }
                setPhase(.waitingForLocationSource)
            case .starting:
                state.withLock { $0.streaming = false }
                setPhase(.startingCamera)
            case .waitingForLocation, .running:
                let hasPosition = state.withLock { state in
                    state.streaming = true
                    return state.hasPosition || phase.isRunning
                }
                setPhase(hasPosition ? .running : .waitingForFix)
            case .interrupted(let error):
                state.withLock { $0.streaming = false }
                setPhase(.interrupted(error.reason))
            case .failed:
                break  // the live capture ends with the failure, which `captureEnded` reports
            }
        }
    }

    /// The location source's status: losing the position while streaming interrupts the view
    /// (frames pass through unannotated, counted) until it comes back.
    private func positionStatusChanged(_ status: LocationStatus) {
        dispatchPrecondition(condition: .onQueue(control))
        let (streaming, had) = state.withLock { state -> (Bool, Bool) in
            defer {
                state.hasPosition = status.isPositionReady
                state.locationStatus = status
            }
            return (state.streaming, state.hasPosition)
        }
        guard streaming, had != status.isPositionReady else { return }
        if status.isPositionReady {
            setPhase(.running)
        } else {
            setPhase(.interrupted("the location source has no position (\(status.description))"))
            setPhase(.waitingForFix)
        }
    }

    /// Moves to `phase` and tells the handlers, in order (a repeat of the current phase is not a
    /// transition).
    func setPhase(_ phase: LoadPhase, final: Bool = false) {
        let handlers = self.handlers.withLock { $0.phases }
        state.withLock { state in
            // Once stopping has begun, only the final phase is reported.
            guard state.phase != phase, !state.ended || final else { return }
            state.phase = phase
            // Queued while the state is locked, so handlers see phases in the order they happened.
            deliver { for handler in handlers { handler(phase) } }
            if hearsItsEvents {
                for stream in self.handlers.withLock({ $0.phaseStreams }) { stream.yield(phase) }
            }
        }
    }

    /// Ends the ``phases`` and ``userCoordinates`` sequences (after the final phase).
    private func finishStreams() {
        let (phases, coordinates) = handlers.withLock { handlers in
            defer {
                handlers.streamsFinished = true
                handlers.phaseStreams = []
                handlers.coordinateStreams = []
            }
            return (handlers.phaseStreams, handlers.coordinateStreams)
        }
        for stream in phases { stream.finish() }
        for stream in coordinates { stream.finish() }
    }

    /// Tells ``userCoordinate(_:)`` handlers and ``userCoordinates`` of a position.
    private func deliverCoordinate(_ coordinate: GeodeticCoordinate) {
        let (coordinates, streams) = handlers.withLock { ($0.coordinates, $0.coordinateStreams) }
        deliver { for handler in coordinates { handler(coordinate) } }
        if hearsItsEvents { for stream in streams { stream.yield(coordinate) } }
    }

    // MARK: Ending (the view's queue)

    private func fail(_ error: GeoARError) {
        dispatchPrecondition(condition: .onQueue(control))
        let failed = handlers.withLock { $0.failed }
        deliver { for handler in failed { handler(error) } }
        stopNow(.failed(error)) {}
    }

    private func captureEnded(_ outcome: LiveCapture.Outcome) {
        dispatchPrecondition(condition: .onQueue(control))
        switch outcome {
        case .completed: stopNow(.completed, liveOutcome: outcome) {}
        case .interrupted: stopNow(.stopped, liveOutcome: outcome) {}
        case .readerClosed: stopNow(.readerClosed, liveOutcome: outcome) {}
        case .failed(let error):
            let failed = handlers.withLock { $0.failed }
            deliver { for handler in failed { handler(.camera(error)) } }
            stopNow(.failed(.camera(error)), liveOutcome: outcome) {}
        case .outputFailed(let error):
            let failed = handlers.withLock { $0.failed }
            deliver { for handler in failed { handler(.output(error)) } }
            stopNow(.failed(.output(error)), liveOutcome: outcome) {}
        case .streamFailed(let message):
            let failed = handlers.withLock { $0.failed }
            deliver { for handler in failed { handler(.configuration(message)) } }
            stopNow(.failed(.configuration(message)), liveOutcome: outcome) {}
        }
    }

    /// Stops everything, then sets the final phase, gives up the renderer slot and lets the view go.
    private func stopNow(
        _ how: Ending, liveOutcome: LiveCapture.Outcome? = nil, then done: @escaping @Sendable () -> Void
    ) {
        dispatchPrecondition(condition: .onQueue(control))
        let (first, camera, footageStop, observations) = state.withLock { state in
            defer {
                state.ended = true
                state.observations = []
            }
            return (!state.ended, state.camera, state.footageStop, state.observations)
        }
        guard first else {
            ending.whenSet { _ in done() }
            return
        }
        for observation in observations { observation.cancel() }
        footageStop?.request()
        let finalPhase: LoadPhase
        if case .failed(let error) = how { finalPhase = .failed(error) } else { finalPhase = .stopped }
        // Callbacks, not tasks: a program that blocks Swift concurrency's few threads (two on a
        // two-core board) must still be able to stop its view.
        let finish: @Sendable (Summary) -> Void = { [self] summary in
            control.async { [self] in
                resetNavigation()
                setPhase(finalPhase, final: true)
                finishStreams()
                photos.close()
                state.withLock { $0.camera = nil }
                session.releaseSlot(kind, for: self)
                ending.set(summary)
                PresentedViews.shared.release(self)
                done()
            }
        }
        let summary = Summary(ending: how, live: nil, liveOutcome: liveOutcome, footage: nil)
        if let camera {
            camera.capture.interrupt()
            camera.session.stopRunning {
                camera.session.locationSource?.stop()
                camera.capture.whenWriterIdle { counts, outcome in
                    var summary = summary
                    summary.live = counts
                    if summary.liveOutcome == nil { summary.liveOutcome = outcome }
                    finish(summary)
                }
            }
        } else if footageStop != nil {
            footageEnded.whenSet { footage in
                var summary = summary
                summary.footage = footage
                if case .stopped = how, footage.ending == .completed { summary.ending = .completed }
                finish(summary)
            }
        } else {
            finish(summary)
        }
    }

    private let footageEnded = OutcomeLatch<FootagePipeline.Summary>()

    // MARK: Frames (the live capture's writer queue, the footage producer)

    /// The selection to draw: the bound value when code changed it (it then becomes the session's),
    /// else the session's.
    func currentSelection() -> Set<String> {
        let binding = handlers.withLock { $0.selection }
        if let binding {
            let (value, version) = binding.snapshot
            let changed = handlers.withLock { handlers -> Bool in
                defer { handlers.selectionVersionSeen = version }
                return handlers.selectionVersionSeen != version
            }
            if changed, !isDisplaced { session.setSelection(value) }
        }
        let selected = session.selectedPOIIDs
        if let binding, receivesUpdates, binding.update(selected, notify: true) {
            handlers.withLock { $0.selectionVersionSeen = binding.version }
        }
        return selected
    }

    /// The view chose a selection itself (the POI nearest the centre): the session's, and the
    /// binding's, told to the program.
    func viewSelected(_ ids: Set<String>) {
        guard !isDisplaced, session.setSelection(ids) else { return }
        let binding = handlers.withLock { $0.selection }
        if let binding, receivesUpdates, binding.update(ids, notify: true) {
            handlers.withLock { $0.selectionVersionSeen = binding.version }
        }
    }

    /// A frame's navigation: the session's and the binding's (nil when it stopped or arrived).
    func navigationChanged(_ navigation: NavigationInfo?) {
        let changed = state.withLock { state -> Bool in
            if let known = state.navigation, known == navigation { return false }
            state.navigation = .some(navigation)
            return true
        }
        guard changed else { return }
        // The session's navigation is the AR view's that holds the slot: a map view read it from
        // there (writing it back could undo a newer one), a displaced view's is its own.
        if kind == .augmentedReality, !isDisplaced { session.navigationInfo = navigation }
        let binding = handlers.withLock { $0.navigation }
        if let binding, receivesUpdates { binding.update(navigation, notify: true) }
    }

    /// A footage frame's position, for ``userCoordinate(_:)`` handlers.
    func footagePosition(_ pose: DevicePose) {
        guard
            let coordinate = GeodeticCoordinate(
                latitude: pose.latitude, longitude: pose.longitude, altitude: pose.altitude)
        else { return }
        deliverCoordinate(coordinate)
    }

    private func resetNavigation() {
        if state.withLock({ $0.navigation }) != nil { navigationChanged(nil) }
    }

    /// Runs `body` on the handler queue, unless another view has taken this one's renderer slot.
    private func deliver(_ body: @escaping @Sendable () -> Void) {
        guard hearsItsEvents else { return }
        configuration.handlerQueue.async(execute: body)
    }

    // MARK: Footage

    private func startFootage(paths: [String], timing: FootageTiming, source: any LocationSource) {
        dispatchPrecondition(condition: .onQueue(control))
        let stop = StopRequest()
        let start = state.withLock { state -> Bool in
            guard !state.footageStarted else { return false }
            state.footageStarted = true
            state.footageStop = stop
            return true
        }
        guard start else { return }
        setPhase(.startingCamera)
        let run = FootageRun(view: self, paths: paths, timing: timing, source: source, stop: stop)
        Thread.detachNewThread { [self] in
            let result = run.run()
            footageEnded.set(result.summary ?? FootagePipeline.Summary.empty)
            control.async { [self] in
                if let error = result.error {
                    fail(error)
                } else if case .failed(let failure) = result.summary?.ending {
                    fail(.writeFailed(failure.description, cannotCreate: failure.cannotCreate))
                } else if result.summary?.ending == .readerClosed {
                    stopNow(.readerClosed) {}
                } else {
                    stopNow(stop.isRequested ? .stopped : .completed) {}
                }
            }
        }
    }
}

extension CapturePhase {
    /// Whether this is ``running(_:)``.
    var isRunning: Bool {
        if case .running = self { return true }
        return false
    }
}
