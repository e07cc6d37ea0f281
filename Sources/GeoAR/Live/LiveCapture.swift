import ArcaptureCore
import CaptureKit
import Foundation

/// A live capture, the camera end of the one frame pipeline: frames from a `CaptureSession` go
/// through a small bounded queue to a writer queue that chooses, writes and logs them.
///
/// Live policy: the capture never falls behind the camera. When writing is slower than the camera,
/// the oldest waiting frame is dropped and counted; damaged frames are dropped and counted too,
/// with one warning naming the likely cause.
///
/// Connect it to a session with ``attach(to:)``, start the session, and wait for ``outcome()``.
///
/// `@unchecked Sendable`: `shared` (a `Locked`) holds what the session queue, the writer queue and
/// the caller's threads share; the writer, selector and log are used only on `writerQueue`.
public final class LiveCapture: @unchecked Sendable {
    /// How a capture ended.
    public enum Outcome: Sendable {
        /// The count or duration was reached.
        case completed
        /// Stopped on request (Ctrl-C): every file written is whole.
        case interrupted
        /// The camera failed (gone without reconnecting, busy, a stream error).
        case failed(CaptureError)
        /// A file or the log could not be written (a full disk).
        case outputFailed(OutputError)
        /// The stream could not go on (a Y4M stream whose size changed with a camera switch).
        case streamFailed(String)
        /// The program reading stdout closed it.
        case readerClosed
    }

    /// What was done, for the summary and a progress line.
    public struct Counts: Sendable, Equatable {
        /// Frames written.
        public var written = 0
        /// Frames lost after writing began: skipped by the driver, or dropped because writing fell behind.
        public var dropped = 0
        /// Of ``dropped``, those dropped here because writing (and drawing) fell behind the camera;
        /// the others the driver skipped (a gap in its frame counter).
        public var droppedBehind = 0
        /// Damaged frames dropped.
        public var damaged = 0
        /// Frames skipped while the camera settled.
        public var warmUp = 0
        /// Frames written with the overlay drawn.
        public var annotated = 0
        /// Frames written as they came because they had no pose (no fix yet, or the fixes stopped).
        public var withoutPose = 0
        /// Frames left unprocessed because no one watched the stream
        /// (``LiveCaptureSettings/idleSlowdown``): all but one a second.
        public var idleSkipped = 0
        /// The median time from capture (the driver's timestamp) to the frame written, in ms.
        public var latencyMedianMilliseconds: Int?
        /// The 99th percentile of that time, in ms.
        public var latency99Milliseconds: Int?
        /// Of ``annotated``, the camera's JPEG frames, spliced or not.
        public var splicing = SpliceCount()

        /// No frame yet.
        public init() {}
    }

    private struct Shared {
        var pending: [VideoFrame] = []
        var draining = false
        var queueDrops = 0
        var damaged = 0
        var warnedAboutDamage = false
        var written = 0
        var dropped = 0
        var droppedBehind = 0
        var deviceIndex = 0
        var annotated = 0
        var withoutPose = 0
        var idleSkipped = 0
        var splicing = SpliceCount()
        var latency = LatencyHistogram()

        /// The counts, with `warmUp` (the selector's, known on the writer queue) and the
        /// latencies when `withLatency`.
        func counts(warmUp: Int, withLatency: Bool) -> Counts {
            var counts = Counts()
            (counts.written, counts.dropped, counts.droppedBehind, counts.damaged) = (
                written, dropped, droppedBehind, damaged
            )
            (counts.warmUp, counts.annotated, counts.withoutPose, counts.idleSkipped) = (
                warmUp, annotated, withoutPose, idleSkipped
            )
            counts.latencyMedianMilliseconds = withLatency ? latency.percentile(0.5) : nil
            counts.latency99Milliseconds = withLatency ? latency.percentile(0.99) : nil
            counts.splicing = splicing
            return counts
        }
    }

    /// Which frames are written.
    public let settings: LiveCaptureSettings
    /// The session frames come from.
    public let session: CaptureSession
    /// Owns the writer, the selector and the log.
    let writerQueue = DispatchQueue(label: "arcapture.capture-writer")
    private let messages: PipelineMessages
    private let shared = Locked(Shared())
    private let ending = OutcomeLatch<Outcome>()
    private let writer: CaptureOutputWriter
    private let log: JSONLinesLog?
    private let sidecar: JSONLinesLog?
    private let stage: (any LiveFrameStage)?
    private let sidecarEncoder = SidecarRecord.makeEncoder()
    private var selector: FrameSelector
    private var negotiated: NegotiatedFormat?
    private var interruptedAt: Date?
    private var dropsSinceRecord = 0
    /// The timestamp of the last frame processed while no one watched (``LiveCaptureSettings/idleSlowdown``).
    private var lastUnwatchedFrame: Int64?
    private let started = ContinuousClock.now

    /// Creates a capture writing through `writer` (and logging to `log`), fed by `session` once
    /// ``attach(to:)`` has connected them.
    public convenience init(
        settings: LiveCaptureSettings, session: CaptureSession, writer: CaptureOutputWriter, log: JSONLinesLog?,
        messages: PipelineMessages = .silent
    ) {
        self.init(
            settings: settings, session: session, writer: writer, log: log, sidecar: nil, stage: nil,
            messages: messages)
    }

    /// Creates a capture whose chosen frames go through `stage` (the overlay) before they are
    /// written, with a sidecar line per frame the stage describes.
    init(
        settings: LiveCaptureSettings, session: CaptureSession, writer: CaptureOutputWriter, log: JSONLinesLog?,
        sidecar: JSONLinesLog?, stage: (any LiveFrameStage)?, messages: PipelineMessages
    ) {
        self.settings = settings
        self.session = session
        self.writer = writer
        self.log = log
        self.sidecar = sidecar
        self.stage = stage
        self.messages = messages
        selector = FrameSelector(
            warmUp: settings.warmUp, interval: settings.every, count: settings.count, duration: settings.duration)
    }

    /// Sets the session's frame handler to this capture and observes its phases and rejected
    /// frames. This method is thread-safe.
    ///
    /// The session holds the capture weakly, as AVFoundation's outputs hold their delegates: the
    /// capture holds its session, so strong handlers would keep both (and every buffer, encoder
    /// and image they own) alive for good after they stop. Keep the capture while it runs (a view
    /// does; so does awaiting ``outcome()``).
    public func attach(to session: CaptureSession) {
        session.setFrameHandler { [weak self] in self?.enqueue($0) }
        session.addRejectionObserver { [weak self] in self?.rejected($0) }
        session.addPhaseObserver { [weak self] in self?.phase($0) }
    }

    // MARK: From the session (its queue)

    /// Queues a frame for the writer, dropping the oldest waiting one when the writer is behind.
    func enqueue(_ frame: VideoFrame) {
        let startDrain = shared.withLock { state -> Bool in
            guard ending.value == nil else { return false }
            // Drops count once writing has begun: frames missed while a still settles do not matter.
            let counting = state.written > 0
            if counting { state.dropped += Int(frame.droppedBefore) }
            state.pending.append(frame)
            if state.pending.count > max(1, settings.maxWaitingFrames) {
                state.pending.removeFirst()
                state.queueDrops += 1
                if counting {
                    state.dropped += 1
                    state.droppedBehind += 1
                }
            }
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        if startDrain { writerQueue.async { [self] in drain() } }
    }

    /// Counts a frame the session dropped as damaged, warning once with the likely cause.
    func rejected(_ rejection: FrameRejection) {
        shared.withLock { state in if state.written > 0 { state.dropped += Int(rejection.droppedBefore) } }
        var cause = rejection.reason.description
        if case .malformedJPEG(let problem) = rejection.reason {
            cause +=
                problem == .missingEndMarker
                ? ": truncated MJPEG usually means the USB bus is short of bandwidth; try a lower frame rate or size, or another USB port"
                : ": a frame that does not start as a JPEG usually means USB packets were lost; try a lower frame rate or size, or another USB port"
        }
        damaged(cause)
    }

    /// Counts a damaged frame; the first one is reported, the others only counted.
    private func damaged(_ cause: String) {
        let warn = shared.withLock { state -> Bool in
            state.damaged += 1
            defer { state.warnedAboutDamage = true }
            return !state.warnedAboutDamage
        }
        if warn { messages.warning("dropping damaged frames (\(cause)); they are counted in the summary") }
    }

    /// Follows the session: records the format, logs interruptions, ends on failure.
    func phase(_ phase: CapturePhase) {
        switch phase {
        case .running(let format), .waitingForLocation(let format):
            writerQueue.async { [self] in
                // Waiting for a fix and then running is one stream: say things about it once.
                guard negotiated != format || interruptedAt != nil else { return }
                negotiated = format
                if let since = interruptedAt {
                    let gap = Date().timeIntervalSince(since)
                    interruptedAt = nil
                    messages.note("note: the camera is back after \(String(format: "%.1f", gap)) s; capture resumes")
                    appendLog([
                        "event": "resumed", "time": JSONLinesLog.timestamp(Date()),
                        "gap_s": (gap * 1000).rounded() / 1000,
                    ])
                }
                for control in format.controls where control.clamped {
                    messages.warning("\(control.identifier) clamped to the camera's range: \(control)")
                }
            }
        case .interrupted(let error):
            messages.warning("\(error.reason); waiting for the camera to come back")
            writerQueue.async { [self] in
                if interruptedAt == nil { interruptedAt = Date() }
                appendLog(["event": "interrupted", "time": JSONLinesLog.timestamp(Date()), "reason": error.reason])
            }
        case .failed(let error):
            finish(.failed(error))
        default:
            break
        }
    }

    // MARK: From any thread (a signal handler's queue)

    /// Ends the capture as interrupted. This method is thread-safe.
    public func interrupt() { finish(.interrupted) }

    /// Switches to the next camera of ``LiveCaptureSettings/devices``, inside a configuration (the
    /// session reopens with the same format and controls). This method is thread-safe.
    public func switchToNextDevice() {
        guard settings.devices.count > 1 else {
            messages.warning("switching cameras needs several devices to switch between")
            return
        }
        let next = shared.withLock { state -> String in
            state.deviceIndex = (state.deviceIndex + 1) % settings.devices.count
            return settings.devices[state.deviceIndex]
        }
        messages.note("note: switching to \(next)")
        writerQueue.async { [self] in
            appendLog(["event": "switched", "time": JSONLinesLog.timestamp(Date()), "device": next])
        }
        session.beginConfiguration()
        session.configuration.devicePath = next
        session.commitConfiguration()
    }

    // MARK: Ending

    /// Waits for the capture to end; any number of callers may wait.
    public func outcome() async -> Outcome { await ending.wait() }

    /// Calls `callback` (on the thread that ends the capture) once it has ended.
    func whenEnded(_ callback: @escaping @Sendable (Outcome) -> Void) { ending.whenSet(callback) }

    /// Waits until the writer queue has finished the frame in hand (files are whole afterwards),
    /// then closes the log. Call it after the session has stopped.
    public func writerIdle() async {
        await withCheckedContinuation { continuation in writerQueue.async { continuation.resume() } }
        log?.close()
        sidecar?.close()
    }

    /// Calls `done` on the writer queue once the frame in hand is finished, after closing the logs.
    func whenWriterIdle(_ done: @escaping @Sendable (Counts, Outcome?) -> Void) {
        writerQueue.async { [self] in
            log?.close()
            sidecar?.close()
            let warmUp = selector.warmUpSkipped
            let counts = shared.withLock { $0.counts(warmUp: warmUp, withLatency: true) }
            done(counts, ending.value)
        }
    }

    /// Counts for the summary. This property is thread-safe (it waits for the writer queue's
    /// frame in hand; do not read it on that queue).
    public var counts: Counts {
        dispatchPrecondition(condition: .notOnQueue(writerQueue))
        let warmUp = writerQueue.sync { selector.warmUpSkipped }
        return shared.withLock { $0.counts(warmUp: warmUp, withLatency: true) }
    }

    /// Counts without waiting for the writer (the warm-up count and the latencies left out), for a
    /// progress line and a server's state. This property is thread-safe.
    public var runningCounts: Counts {
        shared.withLock { $0.counts(warmUp: 0, withLatency: false) }
    }

    /// When the capture was created, for a rate.
    public var startedAt: ContinuousClock.Instant { started }

    private func finish(_ outcome: Outcome) {
        guard ending.set(outcome) else { return }
        shared.withLock { $0.pending = [] }
    }

    // MARK: The writer queue

    /// Takes queued frames one by one until none is left.
    ///
    /// - Important: Must be called on `writerQueue`.
    private func drain() {
        dispatchPrecondition(condition: .onQueue(writerQueue))
        while let frame = shared.withLock({ state -> VideoFrame? in
            guard ending.value == nil, !state.pending.isEmpty else {
                state.draining = false
                return nil
            }
            return state.pending.removeFirst()
        }) {
            process(frame)
        }
    }

    private func process(_ frame: VideoFrame) {
        dropsSinceRecord +=
            Int(frame.droppedBefore)
            + shared.withLock { state in
                defer { state.queueDrops = 0 }
                return state.queueDrops
            }
        switch selector.decide(
            timestampNanoseconds: frame.timestampNanoseconds, brightness: { writer.brightness(of: frame) })
        {
        case .warmUp:
            return
        case .notDue:
            processUnwritten(frame)
            return
        case .finished:
            finish(.completed)
            return
        case .write:
            break
        }
        if isSkippedUnwatched(frame) {
            processUnwritten(frame)
            return
        }
        let number = selector.written + 1
        var image: YCbCrImage?
        var unposed = false
        var spliced: [UInt8]?
        var notSpliced: String?
        var sidecarRecord: SidecarRecord?
        if let stage {
            switch stage.process(frame, number: number) {
            case .annotated(let drawn, let record, let why):
                image = drawn
                notSpliced = why
                sidecarRecord = record
            case .unposed(let zoomed, let record):
                image = zoomed
                unposed = true
                sidecarRecord = record
            case .annotatedJPEG(let bytes, let record):
                spliced = bytes
                sidecarRecord = record
            case .passThrough(let record):
                sidecarRecord = record
            case .damaged(let why):
                damaged(why)
                return
            case .failed(let why):
                finish(.streamFailed(why))
                return
            }
        }
        let result: WrittenFrame
        do {
            if let image {
                result = try writer.write(image, for: frame, counter: number, frameRate: negotiated?.frameInterval)
            } else if let spliced {
                result = try writer.write(annotatedJPEG: spliced, for: frame, counter: number)
            } else {
                result = try writer.write(frame, counter: number, frameRate: negotiated?.frameInterval)
            }
        } catch {
            switch error {
            case .conversion(let problem):
                damaged(problem.description)
            case .output(let output): finish(.outputFailed(output))
            case .readerClosed: finish(.readerClosed)
            case .streamChanged, .video: finish(.streamFailed(error.description))
            }
            return
        }
        selector.recordWrite(timestampNanoseconds: frame.timestampNanoseconds)
        let latency = Double(MonotonicClock.nanoseconds() - frame.timestampNanoseconds) / 1e6
        shared.withLock { state in
            state.written += 1
            state.latency.add(milliseconds: latency)
            if stage != nil {
                if (image != nil && !unposed) || spliced != nil {
                    state.annotated += 1
                } else {
                    state.withoutPose += 1
                }
                state.splicing.record(spliced != nil ? .spliced : notSpliced.map { .whole($0) })
            }
        }
        if let file = result.file { messages.fileWritten(file) }
        var record: [String: Any] = [
            "sequence": Int(frame.sequence), "capture_time": JSONLinesLog.timestamp(frame.captureDate),
            "timestamp_ns": Int(frame.timestampNanoseconds), "width": Int(frame.format.width),
            "height": Int(frame.format.height), "bytes": result.bytes, "dropped": dropsSinceRecord,
            "passthrough": result.passedThrough, "device": frame.devicePath,
        ]
        record["file"] = result.file ?? NSNull()
        // Whether the session's location source had a position when the frame was taken.
        record["location"] = frame.locationStatus.description
        appendLog(record)
        if let image { stage?.recycle(image) }
        if var sidecarRecord, let sidecar {
            sidecarRecord.file = result.file
            do {
                try sidecar.append(line: sidecarRecord.line(using: sidecarEncoder))
            } catch {
                finish(.outputFailed(error))
            }
        }
        dropsSinceRecord = 0
        if selector.isFinished { finish(.completed) }
    }

    /// Hands a frame the outputs do not write to the stage when it wants it (a photo is asked
    /// for), and drops what it made.
    ///
    /// - Important: Must be called on `writerQueue`.
    private func processUnwritten(_ frame: VideoFrame) {
        dispatchPrecondition(condition: .onQueue(writerQueue))
        guard let stage, stage.wantsEveryFrame else { return }
        switch stage.process(frame, number: selector.written + 1) {
        case .annotated(let image, _, _), .unposed(let image, _): stage.recycle(image)
        case .failed(let why): finish(.streamFailed(why))
        case .annotatedJPEG, .passThrough, .damaged: break
        }
    }

    /// Whether `frame` is left unprocessed because no one watches the broadcast: one frame a
    /// second is processed then (by the frames' timestamps), every frame once someone does.
    ///
    /// - Important: Must be called on `writerQueue`.
    private func isSkippedUnwatched(_ frame: VideoFrame) -> Bool {
        dispatchPrecondition(condition: .onQueue(writerQueue))
        guard let broadcast = settings.idleSlowdown, broadcast.viewerCount == 0 else {
            lastUnwatchedFrame = nil
            return false
        }
        if let last = lastUnwatchedFrame, frame.timestampNanoseconds - last < 1_000_000_000 {
            shared.withLock { $0.idleSkipped += 1 }
            return true
        }
        lastUnwatchedFrame = frame.timestampNanoseconds
        return false
    }

    /// - Important: Must be called on `writerQueue`.
    private func appendLog(_ record: [String: Any]) {
        guard let log else { return }
        do {
            try log.append(record)
        } catch {
            finish(.outputFailed(error))
        }
    }
}
