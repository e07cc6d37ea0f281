import ArcaptureCore
import CaptureKit
import GeoAR
import JPEGKit
import Positioning

/// `check --all-formats`: every mode the camera advertises (each format at each size, at the
/// fastest rate listed there), streamed for a few frames each on a fresh open. A camera whose
/// 1920x1080 MJPEG fails while its 640x480 YUYV works is the common bug one stream cannot show.
///
/// The modes run before the check's own stream, so that what the sweep leaves behind (a driver
/// that breaks after a failed mode) shows in the stream's checks too. At most `limit` modes are
/// tried (`--max-modes`), each bounded by `--timeout`, so the sweep's time is bounded by their
/// product; when the camera advertises more, the largest size of every format goes first, then
/// the smallest of every format, then the rest in the driver's order, and the report lists the
/// ones not tried.
struct CheckModes: Equatable, Sendable {
    /// One mode streamed, and how it went.
    struct Trial: Equatable, Sendable {
        var mode: CaptureMode
        /// What the driver applied, once it streamed.
        var negotiated: NegotiatedFormat?
        var framesReceived = 0
        var invalidFrames = 0
        /// The first invalid frame's problem.
        var firstInvalid: String?
        /// From `VIDIOC_STREAMON` to the first frame.
        var timeToFirstFrame: Duration?
        /// Frames per second of the driver's timestamps over the frames received (reported, not
        /// judged: a few frames say little of a rate).
        var measuredFPS: Double?
        var error: CaptureError?

        /// Why the mode fails, or nil when it streamed as advertised.
        var problem: String? {
            if let error { return CommandLineTerms.translate(error.reason) }
            if let applied = negotiated?.format {
                if applied.pixelFormat != mode.pixelFormat {
                    return "asked for \(mode.pixelFormat), the driver gave \(applied.pixelFormat)"
                }
                if applied.size != mode.size {
                    return "asked for \(mode.size), the driver gave \(applied.size)"
                }
            }
            if invalidFrames > 0 {
                return "\(invalidFrames) of \(framesReceived) frames invalid (first: \(firstInvalid ?? ""))"
            }
            return nil
        }
    }

    /// Frames streamed at each mode: enough to see the driver fill and return buffers several
    /// times over (a 4-buffer queue goes round once), few enough that a camera's fifty modes take
    /// seconds each, not minutes.
    static let framesPerMode = 5

    /// Every mode the camera advertises (of `--format`'s format when one is given), in the
    /// driver's order.
    var advertised: [CaptureMode]
    /// `--max-modes`.
    var limit: Int
    /// The modes tried, in the order they ran.
    var trials: [Trial] = []
    /// Ctrl-C came during the sweep.
    var interrupted = false

    /// A failure that ended the sweep because no later mode could stream either (the camera
    /// unplugged, taken by another process, or its permission withdrawn); nil otherwise.
    var blockingError: CaptureError? {
        guard let error = trials.last?.error else { return nil }
        switch error {
        case .deviceNotFound, .deviceGone, .disconnected, .permissionDenied, .deviceBusy: return error
        default: return nil
        }
    }

    /// The modes tried, or to be tried, first: the largest size of every format, then the
    /// smallest of every format, then the rest in the driver's order; at most `limit`.
    static func order(_ modes: [CaptureMode], limit: Int) -> [CaptureMode] {
        var formats: [FourCC] = []
        for mode in modes where !formats.contains(mode.pixelFormat) { formats.append(mode.pixelFormat) }
        func area(_ mode: CaptureMode) -> UInt64 { UInt64(mode.size.width) * UInt64(mode.size.height) }
        var ordered: [CaptureMode] = []
        for pick in [true, false] {
            for format in formats {
                let own = modes.filter { $0.pixelFormat == format }
                let chosen = pick ? own.max { area($0) < area($1) } : own.min { area($0) < area($1) }
                if let chosen, !ordered.contains(chosen) { ordered.append(chosen) }
            }
        }
        ordered += modes.filter { !ordered.contains($0) }
        return Array(ordered.prefix(limit))
    }

    /// Streams each of `device`'s modes (of `format` only, when given) in turn, at most `limit`,
    /// until `interruption` is set; `progress` is told before each.
    static func run(
        device: CaptureDevice, format: FourCC?, limit: Int, options: CheckOptions, location: any LocationSource,
        interruption: OutcomeLatch<Void>, progress: @escaping @Sendable (_ index: Int, _ of: Int, CaptureMode) -> Void
    ) async -> CheckModes {
        var sweep = CheckModes(
            advertised: device.modes.filter { format == nil || $0.pixelFormat == format }, limit: limit)
        let planned = order(sweep.advertised, limit: limit)
        for (index, mode) in planned.enumerated() {
            progress(index + 1, planned.count, mode)
            guard
                let trial = await Self.trial(
                    mode, path: device.path, options: options, location: location, interruption: interruption)
            else {
                sweep.interrupted = true
                return sweep
            }
            sweep.trials.append(trial)
            if sweep.blockingError != nil { return sweep }
        }
        return sweep
    }

    private enum Event: Sendable {
        case enough
        case failed(CaptureError)
        case interrupted
    }

    /// What one mode's frames were, gathered on the session's queue.
    private struct Gathered: Sendable {
        var frames: [(data: [UInt8], timestamp: Int64, sizeImage: UInt32, size: FrameSize)] = []
        var rejected: [String] = []
        var negotiated: NegotiatedFormat?
    }

    /// One session from open to close at `mode`, to its ``framesPerMode``-th frame; nil when
    /// interrupted.
    private static func trial(
        _ mode: CaptureMode, path: String, options: CheckOptions, location: any LocationSource,
        interruption: OutcomeLatch<Void>
    ) async -> Trial? {
        let session = CaptureSession()
        session.configuration = CaptureConfiguration(
            devicePath: path,
            format: FormatRequest(
                pixelFormat: mode.pixelFormat, size: mode.size, framesPerSecond: mode.framesPerSecond,
                conversion: .native),
            bufferCount: options.bufferCount, frameTimeout: .milliseconds(Int64(options.timeoutSeconds * 1000)))
        let event = OutcomeLatch<Event>()
        let gathered = Locked(Gathered())
        // Frames after the last one wanted (the session streams on until it has stopped) are
        // not this mode's: neither kept nor counted.
        session.setFrameHandler { frame in
            let count = gathered.withLock { state in
                guard state.frames.count + state.rejected.count < framesPerMode else { return framesPerMode }
                state.frames.append(
                    (frame.data, frame.timestampNanoseconds, frame.format.sizeImage, frame.format.size))
                return state.frames.count + state.rejected.count
            }
            if count >= framesPerMode { event.set(.enough) }
        }
        session.addRejectionObserver { rejection in
            let count = gathered.withLock { state in
                guard state.frames.count + state.rejected.count < framesPerMode else { return framesPerMode }
                state.rejected.append(rejection.reason.description)
                return state.frames.count + state.rejected.count
            }
            if count >= framesPerMode { event.set(.enough) }
        }
        session.addPhaseObserver { phase in
            switch phase {
            case .running(let negotiated), .waitingForLocation(let negotiated):
                gathered.withLock { $0.negotiated = negotiated }
            case .failed(let error): event.set(.failed(error))
            default: break
            }
        }
        let ended = await CheckSessionRun.run(
            session, until: event, interrupted: .interrupted, interruption: interruption, location: location)
        if case .interrupted = ended { return nil }
        let found = gathered.withLock { $0 }
        var trial = Trial(mode: mode, negotiated: found.negotiated)
        trial.timeToFirstFrame = session.statistics.timeToFirstFrame
        if case .failed(let error) = ended { trial.error = error }
        trial.framesReceived = found.frames.count + found.rejected.count
        trial.invalidFrames = found.rejected.count
        trial.firstInvalid = found.rejected.first
        let decoder = mode.isCompressed ? try? JPEGDecoder() : nil
        for frame in found.frames {
            let problem: String?
            if !mode.isCompressed {
                problem =
                    frame.sizeImage > 0 && frame.data.count != Int(frame.sizeImage)
                    ? "\(frame.data.count) bytes, the format needs \(frame.sizeImage)" : nil
            } else if mode.pixelFormat == .mjpeg || mode.pixelFormat == .jpeg, let decoder {
                problem = CheckRecorder.decode(frame.data, size: frame.size, with: decoder).problem
            } else {
                // Another compressed format (H.264…): its structure is the driver's word.
                problem = nil
            }
            if let problem {
                trial.invalidFrames += 1
                if trial.firstInvalid == nil { trial.firstInvalid = problem }
            }
        }
        let stamps = found.frames.map(\.timestamp)
        if let first = stamps.first, let last = stamps.last, stamps.count >= 2, last > first {
            trial.measuredFPS = Double(stamps.count - 1) / (Double(last - first) / 1e9)
        }
        return trial
    }
}
