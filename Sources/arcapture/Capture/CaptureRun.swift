import CaptureKit
import Foundation
import Synchronization

/// One `arcapture capture`: frames from the session go through a small bounded queue (live capture
/// drops the oldest frame, and counts it, rather than fall behind) to a writer queue that chooses,
/// writes and logs them.
///
/// `@unchecked Sendable`: `shared` (a `Mutex`) holds what the session queue, the writer queue and
/// the signal queue share; the writer, selector and log are used only on `writerQueue`.
final class CaptureRun: @unchecked Sendable {
    /// How a capture ended.
    enum Outcome: Sendable {
        case completed
        case interrupted
        case failed(CaptureError)
        case outputFailed(OutputError)
        case streamFailed(String)
        case readerClosed
    }

    private struct Shared {
        var pending: [VideoFrame] = []
        var draining = false
        var queueDrops = 0
        var damaged = 0
        var warnedAboutDamage = false
        var written = 0
        var dropped = 0
        var deviceIndex = 0
    }

    /// Frames waiting for the writer, at most: enough to ride out a slow file write.
    static let queueLimit = 4

    let options: CaptureOptions
    let session: CaptureSession
    let writerQueue = DispatchQueue(label: "arcapture.capture-writer")
    private let shared = Mutex(Shared())
    private let ending = OutcomeLatch<Outcome>()
    private let writer: CaptureOutputWriter
    private let log: JSONLinesLog?
    private var selector: FrameSelector
    private var negotiated: NegotiatedFormat?
    private var interruptedAt: Date?
    private var dropsSinceRecord = 0
    private var started = ContinuousClock.now

    init(options: CaptureOptions, session: CaptureSession, writer: CaptureOutputWriter, log: JSONLinesLog?) {
        self.options = options
        self.session = session
        self.writer = writer
        self.log = log
        selector = FrameSelector(
            warmUp: options.warmUp, interval: options.every, count: options.count, duration: options.duration)
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
            if state.pending.count > Self.queueLimit {
                state.pending.removeFirst()
                state.queueDrops += 1
                if counting { state.dropped += 1 }
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
        if case .malformedJPEG = rejection.reason {
            cause +=
                ": truncated MJPEG usually means the USB bus is short of bandwidth; try a lower --fps or --size, or another USB port"
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
        if warn { Terminal.warning("dropping damaged frames (\(cause)); they are counted in the summary") }
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
                    Terminal.note("note: the camera is back after \(String(format: "%.1f", gap)) s; capture resumes")
                    appendLog([
                        "event": "resumed", "time": JSONLinesLog.timestamp(Date()),
                        "gap_s": (gap * 1000).rounded() / 1000,
                    ])
                }
                for control in format.controls where control.clamped {
                    Terminal.warning("\(control.identifier) clamped to the camera's range: \(control)")
                }
            }
        case .interrupted(let error):
            Terminal.warning("\(error.reason); waiting for the camera to come back (--reconnect)")
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

    // MARK: From the signal queue

    /// Ends the capture as interrupted.
    func interrupt() { finish(.interrupted) }

    /// Switches to the next camera of `--device`, inside a configuration (the session reopens).
    func switchToNextDevice() {
        guard options.devices.count > 1 else {
            Terminal.warning("SIGUSR1 switches cameras only with several --device paths")
            return
        }
        let next = shared.withLock { state -> String in
            state.deviceIndex = (state.deviceIndex + 1) % options.devices.count
            return options.devices[state.deviceIndex]
        }
        Terminal.note("note: switching to \(next)")
        writerQueue.async { [self] in
            appendLog(["event": "switched", "time": JSONLinesLog.timestamp(Date()), "device": next])
        }
        session.beginConfiguration()
        session.configuration.devicePath = next
        session.commitConfiguration()
    }

    // MARK: Ending

    /// Waits for the capture to end; any number of callers may wait.
    func outcome() async -> Outcome { await ending.wait() }

    /// Waits until the writer queue has finished the frame in hand (files are whole afterwards).
    func writerIdle() async {
        await withCheckedContinuation { continuation in writerQueue.async { continuation.resume() } }
        log?.close()
    }

    /// Counts for the summary.
    var counts: (written: Int, dropped: Int, damaged: Int, warmUp: Int) {
        let warmUp = writerQueue.sync { selector.warmUpSkipped }
        return shared.withLock { ($0.written, $0.dropped, $0.damaged, warmUp) }
    }

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
        case .warmUp, .notDue:
            return
        case .finished:
            finish(.completed)
            return
        case .write:
            break
        }
        let result: WrittenFrame
        do {
            result = try writer.write(frame, counter: selector.written + 1, frameRate: negotiated?.frameInterval)
        } catch {
            switch error {
            case .conversion(let problem):
                damaged(problem.description)
            case .output(let output): finish(.outputFailed(output))
            case .readerClosed: finish(.readerClosed)
            case .streamChanged: finish(.streamFailed(error.description))
            }
            return
        }
        selector.recordWrite(timestampNanoseconds: frame.timestampNanoseconds)
        shared.withLock { $0.written += 1 }
        if let file = result.file { Terminal.out(file) }
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
        dropsSinceRecord = 0
        if selector.isFinished { finish(.completed) }
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

    /// The progress line's text.
    var progress: String {
        let (written, dropped, damaged) = shared.withLock { ($0.written, $0.dropped, $0.damaged) }
        let seconds = Double(started.duration(to: .now).components.seconds) + 0.001
        return String(
            format: "captured %d frames, %.1f fps, %d dropped, %d damaged", written, Double(written) / seconds, dropped,
            damaged)
    }
}
