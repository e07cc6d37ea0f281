import ArcaptureCore
import Dispatch
import Foundation

extension CaptureSession {
    /// Executes the state machine's actions in order.
    ///
    /// - Important: Must be called on the session queue.
    func perform(_ actions: [CaptureStateMachine.Action]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .openStream:
                switch openStream() {
                case .success(let opened):
                    stream = opened
                    if stablePath == nil {
                        stablePath = Self.stableLink(for: opened.driver.path)
                    }
                    perform(machine.streamOpened(opened.negotiated))
                case .failure(let error):
                    perform(machine.streamFailed(error))
                }
            case .closeStream:
                closeStream()
            case .publish(let phase):
                publish(phase)
            case .waitForDevice(let delay):
                waitForDevice(after: delay)
            case .cancelWait:
                deviceWaiter?.cancel()
                deviceWaiter = nil
            }
        }
    }

    /// Watches, on a thread of its own, for the interrupted camera to be usable again, then reports
    /// it on the queue.
    ///
    /// - Important: Must be called on the session queue.
    private func waitForDevice(after delay: Duration) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let path = stablePath ?? appliedConfiguration.devicePath, let waiter = NodeAppearanceWaiter() else {
            perform(machine.streamFailed(.invalidConfiguration("cannot wait for the camera to come back")))
            return
        }
        deviceWaiter = waiter
        let probe = self.probe
        let forever = ContinuousClock.now.advanced(by: .seconds(10 * 365 * 24 * 3600))
        Thread.detachNewThread { [self] in
            if delay > .zero { Thread.sleep(forTimeInterval: delay.seconds) }
            let returned = waiter.waitUntilAuthorized(path, deadline: forever, probe: probe)
            queue.async { [self] in
                guard returned, deviceWaiter === waiter else { return }  // cancelled, or superseded
                deviceWaiter = nil
                perform(machine.deviceReturned())
            }
        }
    }

    /// Calls `body` on the session queue once every closing device has been closed.
    ///
    /// - Important: Must be called on the session queue.
    func whenClosed(_ body: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        // A cancelled readiness watcher has its descriptor closed on this queue once its thread has
        // stopped polling it, some time after `cancel()`; wait for those still outstanding.
        if closingStreams.isEmpty { body() } else { closeWaiters.append(body) }
    }

    /// Closes a stream's driver once its readiness watcher has stopped, then wakes close waiters.
    ///
    /// - Important: Must be called on the session queue.
    private func finishClose(_ identity: ObjectIdentifier) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let stream = closingStreams.removeValue(forKey: identity) else { return }
        stream.driver.close()
        guard closingStreams.isEmpty else { return }
        let waiters = closeWaiters
        closeWaiters = []
        for waiter in waiters { waiter() }
    }

    private func publish(_ phase: CapturePhase) {
        let (observers, outputs) = shared.withLock { state in
            state.phase = phase
            return (Array(state.phaseObservers.sorted { $0.key < $1.key }.map(\.value)), state.outputs)
        }
        switch phase {
        case .idle: for output in outputs { output.sessionEnded(nil) }
        case .failed(let error): for output in outputs { output.sessionEnded(error) }
        default: break
        }
        for observer in observers { observer(phase) }
    }

    // MARK: Opening

    /// Opens the configured device, negotiates format, rate and buffers, and starts streaming.
    ///
    /// - Important: Must be called on the session queue.
    private func openStream() -> Result<ActiveStream, CaptureError> {
        dispatchPrecondition(condition: .onQueue(queue))
        let configuration = appliedConfiguration
        // After an interruption the camera is found by its stable link: its node number may differ.
        guard let path = stablePath ?? configuration.devicePath else {
            return .failure(.invalidConfiguration("no capture device chosen"))
        }
        var usesLibV4L2 = configuration.format.conversion == .libv4l2
        var driver: any VideoDeviceDriver
        switch openAndCheck(path, usesLibV4L2: usesLibV4L2) {
        case .success(let opened): driver = opened
        case .failure(let error): return .failure(error)
        }
        var choice = chooseFormat(driver, request: configuration.format, usesLibV4L2: usesLibV4L2)
        if case .failure(.needsConversion) = choice {
            // Nothing native: let libv4l2 convert (a Bayer-only sensor, for instance).
            driver.close()
            usesLibV4L2 = true
            switch openAndCheck(path, usesLibV4L2: true) {
            case .success(let opened): driver = opened
            case .failure(let error): return .failure(error)
            }
            choice = chooseFormat(driver, request: configuration.format, usesLibV4L2: true)
        }
        let chosen: FormatChoice
        switch choice {
        case .success(let value):
            chosen = value
        case .failure(.unsupported(_, let available)), .failure(.needsConversion(let available)):
            driver.close()
            let name = configuration.format.pixelFormat?.description ?? "auto"
            return .failure(.unsupportedFormat(path: path, requested: name, available: available))
        }
        do {
            let stream = try negotiateAndStart(
                driver, path: path, choice: chosen, configuration: configuration,
                usesLibV4L2: usesLibV4L2)
            return .success(stream)
        } catch {
            driver.close()
            return .failure(error)
        }
    }

    /// Opens `path` and checks that it is a streaming, single-planar capture node.
    private func openAndCheck(_ path: String, usesLibV4L2: Bool) -> Result<any VideoDeviceDriver, CaptureError> {
        let driver: any VideoDeviceDriver
        do {
            driver = try openDriver(path, usesLibV4L2)
        } catch {
            if error.errno == .noSuchFile { return .failure(.deviceNotFound(path: path)) }
            guard case .success(let info) = FileSystem.status(of: path) else {
                return .failure(.deviceNotFound(path: path))
            }
            return .failure(
                probe.classifyOpenFailure(error, path: path, node: info).problem
                    ?? .streamingFailed(path: path, error))
        }
        do {
            if let problem = try driver.queryCapability().captureProblem(path: path) {
                driver.close()
                return .failure(problem)
            }
        } catch {
            driver.close()
            return .failure(streamError(error, path: path, streaming: false))
        }
        return .success(driver)
    }

    private func chooseFormat(_ driver: any VideoDeviceDriver, request: FormatRequest, usesLibV4L2: Bool)
        -> Result<FormatChoice, FormatSelector.Failure>
    {
        let formats = DeviceInspector(driver: driver).formats(.capture)
        let current = try? driver.currentFormat(.capture)
        return FormatSelector.choose(request, from: formats, currentSize: current?.size, throughLibV4L2: usesLibV4L2)
    }

    /// Sets format and rate, allocates and maps buffers, queues them and starts streaming. On
    /// failure, releases what it took (the caller closes the driver).
    private func negotiateAndStart(
        _ driver: any VideoDeviceDriver, path: String, choice: FormatChoice, configuration: CaptureConfiguration,
        usesLibV4L2: Bool
    ) throws(CaptureError) -> ActiveStream {
        let request = configuration.format
        var adjustments: [String] = []
        let wanted = V4L2Format(pixelFormat: choice.pixelFormat, width: choice.size.width, height: choice.size.height)
        let applied: V4L2Format
        do {
            applied = try driver.setFormat(wanted, .capture)
        } catch {
            throw streamError(error, path: path, streaming: false)
        }
        if applied.pixelFormat != choice.pixelFormat {
            // V4L2 drivers substitute a format they support instead of failing (vivid does for MJPG).
            if request.pixelFormat != nil {
                let available = DeviceInspector(driver: driver).formats(.capture).map(\.fourCC)
                throw .unsupportedFormat(path: path, requested: choice.pixelFormat.description, available: available)
            }
            adjustments.append("the driver substituted \(applied.pixelFormat) for \(choice.pixelFormat)")
        }
        if applied.size != choice.size {
            adjustments.append("the driver set \(applied.size) instead of \(choice.size)")
        }
        var interval: FrameInterval?
        do {
            if let wantedInterval = choice.frameInterval {
                interval = try driver.setFrameInterval(wantedInterval, .capture)
                if let interval,
                    abs(interval.framesPerSecond - wantedInterval.framesPerSecond) > wantedInterval.framesPerSecond
                        * 0.005
                {
                    adjustments.append("the driver set \(interval) instead of \(wantedInterval)")
                }
                if interval == nil { adjustments.append("the driver cannot set a frame rate") }
            } else {
                interval = try driver.currentFrameInterval(.capture)
            }
        } catch {
            throw streamError(error, path: path, streaming: false)
        }

        let controls = try apply(configuration.controls, to: driver, path: path)

        let count: UInt32
        do {
            count = try driver.requestBuffers(configuration.bufferCount, .capture)
        } catch {
            throw streamError(error, path: path, streaming: false)
        }
        guard count > 0 else {
            throw .streamingFailed(path: path, SystemCallError(call: "VIDIOC_REQBUFS", errno: .noMemory))
        }
        var buffers: [UnsafeMutableRawBufferPointer] = []
        var streamOnNanoseconds: Int64 = 0
        func release() {
            for buffer in buffers { driver.unmapBuffer(buffer) }
            _ = try? driver.requestBuffers(0, .capture)
        }
        do {
            for index in 0..<count {
                buffers.append(try driver.mapBuffer(index, .capture))
                try driver.queueBuffer(index, .capture)
            }
            streamOnNanoseconds = MonotonicClock.nanoseconds()
            try driver.startStreaming(.capture)
        } catch {
            release()
            throw streamError(error, path: path, streaming: false)
        }
        let negotiated = NegotiatedFormat(
            request: request, choice: choice, format: applied, frameInterval: interval, bufferCount: count,
            usesLibV4L2: usesLibV4L2, adjustments: adjustments, controls: controls)
        let stream = ActiveStream(
            driver: driver, negotiated: negotiated, buffers: buffers, streamOnNanoseconds: streamOnNanoseconds)
        shared.withLock { $0.statistics = CaptureStatistics() }
        do {
            try arm(stream, frameTimeout: configuration.frameTimeout)
        } catch {
            try? driver.stopStreaming(.capture)
            release()
            throw error
        }
        return stream
    }

    /// Resolves `settings` against the device's controls and writes them, in order.
    ///
    /// - Important: Must be called on the session queue.
    func apply(_ settings: [ControlSetting], to driver: any VideoDeviceDriver, path: String) throws(CaptureError)
        -> [AppliedControl]
    {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !settings.isEmpty else { return [] }
        let available: [DeviceControl]
        do {
            available = try driver.enumerateControls()
        } catch {
            throw streamError(error, path: path, streaming: false)
        }
        var applied: [AppliedControl] = []
        for setting in settings {
            let resolution: ControlResolution
            switch setting.resolve(against: available) {
            case .success(let value): resolution = value
            case .failure(let error): throw .controlFailed(path: path, error)
            }
            let control = resolution.control
            do {
                let current = try driver.setControl(control.id, type: control.type, value: resolution.value)
                applied.append(
                    AppliedControl(
                        identifier: control.identifier, requested: setting.description, written: resolution.value,
                        current: current, clamped: resolution.clamped))
            } catch {
                if error.errno == .noSuchDevice { throw streamError(error, path: path, streaming: false) }
                throw .controlFailed(path: path, .rejected(control: control.identifier, error))
            }
        }
        return applied
    }

    /// Starts watching the stream's descriptor and its stall timer.
    ///
    /// - Important: Must be called on the session queue.
    private func arm(_ stream: ActiveStream, frameTimeout: Duration) throws(CaptureError) {
        dispatchPrecondition(condition: .onQueue(queue))
        let driver = stream.driver
        let watcher: ReadinessWatcher
        do {
            watcher = try ReadinessWatcher(descriptor: driver.readinessDescriptor, queue: queue)
        } catch {
            throw .streamingFailed(path: driver.path, error)
        }
        stream.readinessWatcher = watcher
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [self] in
            guard self.stream === stream else { return }
            // The timer runs from the last drain; the device says whether a frame was owed all
            // that time (a sensor's always is), or from when, or not yet.
            let timeout = frameTimeout.nanoseconds
            let now = MonotonicClock.nanoseconds()
            guard let owed = driver.frameOwedSince(lastDrain: stream.lastDrainNanoseconds) else {
                stream.stallTimer?.schedule(deadline: .now() + frameTimeout.dispatchInterval)
                return
            }
            let waited = now &- owed
            guard waited >= timeout else {
                stream.stallTimer?.schedule(deadline: .now() + .nanoseconds(Int(timeout &- waited)))
                return
            }
            perform(
                machine.streamFailed(
                    .timeout(path: driver.path, seconds: frameTimeout.seconds, framesReceived: stream.framesSeen)))
        }
        stream.lastDrainNanoseconds = MonotonicClock.nanoseconds()
        timer.schedule(deadline: .now() + frameTimeout.dispatchInterval)
        stream.stallTimer = timer
        stream.frameTimeout = frameTimeout
        // The closure names its stream by identity (ActiveStream is the queue's, not Sendable): a
        // readiness handed over just before a reconnect must not drain the next stream.
        let identity = ObjectIdentifier(stream)
        watcher.start(
            ready: { [self] in
                dispatchPrecondition(condition: .onQueue(queue))
                guard let current = self.stream, ObjectIdentifier(current) == identity else { return true }
                return drain(current)
            },
            finished: { [self] in finishClose(identity) })
        timer.resume()
    }

    // MARK: Streaming

    /// Dequeues every ready buffer, delivers or rejects each, and queues it again. Returns whether
    /// it made progress: dequeued a buffer, or ended the stream.
    ///
    /// - Important: Must be called on the session queue.
    private func drain(_ stream: ActiveStream) -> Bool {
        dispatchPrecondition(condition: .onQueue(queue))
        var progressed = false
        while self.stream === stream {
            let buffer: DequeuedBuffer?
            do {
                buffer = try stream.driver.dequeueBuffer(.capture)
            } catch {
                perform(machine.streamFailed(streamError(error, path: stream.driver.path, streaming: true)))
                return true
            }
            guard let buffer else { break }
            progressed = true
            guard Int(buffer.index) < stream.buffers.count else {
                // The index comes from the driver; a bad one is the driver's fault, not a reason to crash.
                let error = SystemCallError(call: "VIDIOC_DQBUF", errno: .invalidArgument)
                perform(machine.streamFailed(.streamingFailed(path: stream.driver.path, error)))
                return true
            }
            let outcome = examine(buffer, in: stream)
            do {
                try stream.driver.queueBuffer(buffer.index, .capture)
            } catch {
                perform(machine.streamFailed(streamError(error, path: stream.driver.path, streaming: true)))
                return true
            }
            deliver(outcome)
        }
        if self.stream === stream, let timeout = stream.frameTimeout {
            stream.lastDrainNanoseconds = MonotonicClock.nanoseconds()
            stream.stallTimer?.schedule(deadline: .now() + timeout.dispatchInterval)
        }
        return progressed || self.stream !== stream
    }

    private enum Outcome {
        case frame(VideoFrame)
        case rejected(FrameRejection)
        /// A buffer filled before the stream started: queued again, counted, not delivered.
        case stale
    }

    /// Copies a dequeued buffer into a frame, or rejects it, and updates the statistics.
    private func examine(_ buffer: DequeuedBuffer, in stream: ActiveStream) -> Outcome {
        let now = MonotonicClock.nanoseconds()
        if stream.isStale(buffer) {
            shared.withLock { $0.statistics.staleBuffersSkipped += 1 }
            return .stale
        }
        let dropped = stream.gap(before: buffer.sequence)
        let format = stream.negotiated.format
        let isFirst = stream.framesSeen == 0
        stream.framesSeen += 1
        let memory = stream.buffers[Int(buffer.index)]
        var used = min(Int(buffer.bytesUsed), memory.count)
        var bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(memory)[0..<used])

        var reason: FrameRejection.Reason?
        if buffer.flags.contains(.error) {
            reason = .driverError
        } else if used == 0 {
            reason = .empty
        } else if format.pixelFormat == .mjpeg || format.pixelFormat == .jpeg {
            reason = JPEGStructure.problem(in: bytes).map(FrameRejection.Reason.malformedJPEG)
            if reason == nil {
                // Padding after the end marker (zeros up to the buffer's end from some drivers) is
                // not part of the image: a still or a stream gets the JPEG alone.
                used = JPEGStructure.imageLength(in: bytes)
                bytes = UnsafeRawBufferPointer(rebasing: bytes[0..<used])
            }
        } else if format.sizeImage > 0 && used < Int(format.sizeImage) {
            reason = .short(expected: format.sizeImage, received: UInt32(used))
        }
        shared.withLock { state in
            state.statistics.framesDropped += Int(dropped)
            if isFirst { state.statistics.timeToFirstFrame = .nanoseconds(now - stream.streamOnNanoseconds) }
            if reason == nil { state.statistics.framesDelivered += 1 } else { state.statistics.framesRejected += 1 }
        }
        if let reason {
            return .rejected(
                FrameRejection(
                    sequence: buffer.sequence, droppedBefore: dropped, bytesUsed: buffer.bytesUsed,
                    timestampNanoseconds: buffer.timestampNanoseconds, reason: reason))
        }
        let wallClock = buffer.timestampNanoseconds + stream.realtimeOffsetNanoseconds
        return .frame(
            VideoFrame(
                data: Array(bytes), format: format, sequence: buffer.sequence, droppedBefore: dropped,
                timestampNanoseconds: buffer.timestampNanoseconds,
                captureDate: Date(timeIntervalSince1970: Double(wallClock) / 1e9), flags: buffer.flags,
                locationStatus: shared.withLock { $0.locationStatus }, devicePath: stream.driver.path))
    }

    private func deliver(_ outcome: Outcome) {
        switch outcome {
        case .frame(let frame):
            let (handler, outputs) = shared.withLock { ($0.frameHandler, $0.outputs) }
            for output in outputs { output.receive(frame) }
            handler?(frame)
        case .rejected(let rejection):
            let observers = shared.withLock { state in state.rejectionObservers.sorted { $0.key < $1.key }.map(\.value)
            }
            for observer in observers { observer(rejection) }
        case .stale:
            break
        }
    }

    // MARK: Closing

    /// Stops streaming and releases everything the stream holds; the descriptor closes once the
    /// readiness watcher has stopped looking at it.
    ///
    /// - Important: Must be called on the session queue.
    private func closeStream() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let stream else { return }
        self.stream = nil
        stream.stallTimer?.cancel()
        // After an unplug these fail with ENODEV; the resources are released either way.
        try? stream.driver.stopStreaming(.capture)
        for buffer in stream.buffers { stream.driver.unmapBuffer(buffer) }
        _ = try? stream.driver.requestBuffers(0, .capture)
        if let watcher = stream.readinessWatcher {
            closingStreams[ObjectIdentifier(stream)] = stream
            watcher.cancel()
        } else {
            stream.driver.close()
        }
    }

    /// The `/dev/v4l/by-id` link of a node (the camera's identity), else its `by-path` link (its
    /// port), else nil. A path that is already such a link is its own stable link.
    static func stableLink(for path: String) -> String? {
        if path.hasPrefix("/dev/v4l/") { return path }
        let links = CaptureDevice.stablePaths(of: path, in: "/dev/v4l")
        return links.first { $0.contains("/by-id/") } ?? links.first
    }

    /// Maps a failed request to the user's situation.
    func streamError(_ error: SystemCallError, path: String, streaming: Bool) -> CaptureError {
        switch error.errno {
        case .noSuchDevice, .noSuchDeviceOrAddress:
            return streaming ? .disconnected(path: path) : .deviceGone(path: path, errno: error.errno)
        case .busy:
            return .busy(path: path)
        default:
            return .streamingFailed(path: path, error)
        }
    }
}

extension Duration {
    /// The duration in seconds, for Foundation's and the C library's clocks and for reports.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration as a Dispatch interval (nanosecond resolution).
    package var dispatchInterval: DispatchTimeInterval { .nanoseconds(Int(nanoseconds)) }

    /// The duration in whole nanoseconds, the unit of CLOCK_MONOTONIC timestamps; a duration too
    /// long for an `Int64` (centuries) saturates, as good as forever.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return sumOverflow ? (seconds < 0 ? .min : .max) : sum
    }
}
