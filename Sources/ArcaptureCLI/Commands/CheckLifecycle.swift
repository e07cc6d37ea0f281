import CaptureKit
import GeoAR
import Positioning

/// `check --cycles N`: what libcamera's lc-compliance tries beyond one stream, which a camera that
/// streams once can still fail.
///
/// After the check's stream, the camera is opened, started and stopped again `cycles` times, each
/// time on a fresh open, until its first frame (timed from `VIDIOC_STREAMON`); then once stopped
/// right after `VIDIOC_STREAMON`, with every buffer still queued (the case drivers lose buffers
/// in); then closed and opened once more, which must stream. Each start is a whole
/// ``CaptureSession``: open, negotiation of the format the stream had, `VIDIOC_REQBUFS`, mapping,
/// streaming, and at the stop `VIDIOC_STREAMOFF`, unmapping, `VIDIOC_REQBUFS(0)` and close. A
/// buffer the driver kept would make the next start's `VIDIOC_REQBUFS` fail (`EBUSY`), so a start
/// that streams shows the last one gave back every buffer.
struct CheckLifecycle: Equatable, Sendable {
    /// One start of the stream, and how it ended.
    struct Start: Equatable, Sendable {
        /// From `VIDIOC_STREAMON` to the first frame; nil when none came.
        var timeToFirstFrame: Duration?
        /// Frames delivered before the stop.
        var framesBeforeStop = 0
        /// Why the start failed, or nil.
        var error: CaptureError?

        /// Why the start failed, in the command line's terms.
        var problem: String? { error.map { CommandLineTerms.translate($0.reason) } }
    }

    /// The first start's failure, if one failed: the check's exit status is its class, as for
    /// the stream's own (a camera unplugged between two starts is gone, 69, not a failed check).
    var error: CaptureError? {
        (cycles + [stopWithBuffersQueued, reopened].compactMap { $0 }).lazy.compactMap(\.error).first
    }

    /// The starts asked for (`--cycles`).
    var requested: Int
    /// Each start and stop after the first frame, in order.
    var cycles: [Start] = []
    /// The start stopped with every buffer queued; nil when not reached.
    var stopWithBuffersQueued: Start?
    /// The close and open after it; nil when not reached.
    var reopened: Start?
    /// Ctrl-C came during the cycles.
    var interrupted = false

    /// When a start ends.
    private enum StopPoint {
        /// At its first frame.
        case firstFrame
        /// As soon as it streams, before any buffer is dequeued.
        case streaming
    }

    private enum Event: Sendable {
        case frame, streaming
        case failed(CaptureError)
        case interrupted
    }

    /// Runs the cycles on `path`, in `negotiated`'s format, size and rate, until `interruption` is
    /// set; stops at the first start that fails.
    static func run(
        cycles: Int, path: String, negotiated: NegotiatedFormat, options: CheckOptions, location: any LocationSource,
        interruption: OutcomeLatch<Void>
    ) async -> CheckLifecycle {
        var lifecycle = CheckLifecycle(requested: cycles)
        guard cycles > 0 else { return lifecycle }
        let configuration = CaptureConfiguration(
            devicePath: path,
            format: FormatRequest(
                pixelFormat: negotiated.format.pixelFormat, size: negotiated.format.size,
                framesPerSecond: negotiated.frameInterval?.framesPerSecond,
                conversion: negotiated.usesLibV4L2 ? .libv4l2 : .native),
            bufferCount: negotiated.bufferCount, frameTimeout: .milliseconds(Int64(options.timeoutSeconds * 1000)))
        // The cycles, then the stop with buffers queued, then the reopen; the first failure ends them.
        for index in 0...(cycles + 1) {
            let point: StopPoint = index == cycles ? .streaming : .firstFrame
            guard
                let start = await Self.start(
                    configuration, until: point, location: location, interruption: interruption)
            else {
                lifecycle.interrupted = true
                return lifecycle
            }
            switch index {
            case ..<cycles: lifecycle.cycles.append(start)
            case cycles: lifecycle.stopWithBuffersQueued = start
            default: lifecycle.reopened = start
            }
            guard start.error == nil else { return lifecycle }
        }
        return lifecycle
    }

    /// One session from open to close, stopped at `point`; nil when interrupted.
    private static func start(
        _ configuration: CaptureConfiguration, until point: StopPoint, location: any LocationSource,
        interruption: OutcomeLatch<Void>
    ) async -> Start? {
        let session = CaptureSession()
        session.configuration = configuration
        let event = OutcomeLatch<Event>()
        session.setFrameHandler { _ in event.set(.frame) }
        session.addPhaseObserver { phase in
            switch phase {
            case .running, .waitingForLocation: if point == .streaming { event.set(.streaming) }
            case .failed(let error): event.set(.failed(error))
            default: break
            }
        }
        let ended = await CheckSessionRun.run(
            session, until: event, interrupted: .interrupted, interruption: interruption, location: location)
        let statistics = session.statistics
        var start = Start(
            timeToFirstFrame: statistics.timeToFirstFrame, framesBeforeStop: statistics.framesDelivered)
        switch ended {
        case .interrupted: return nil
        case .failed(let error): start.error = error
        case .frame, .streaming: break
        }
        return start
    }
}
