import CaptureKit
import GeoAR

/// Collects what `check` needs while a session streams: a record per frame (valid or rejected), the
/// negotiated format, and how the run ended. Frames are validated as they arrive: a raw frame must
/// fill its format's size, and an MJPEG frame must decode to the negotiated size.
///
/// Called on the session queue (frames, rejections, phases) and from the signal queue (interrupt);
/// all state sits behind one `Locked`.
final class CheckRecorder: Sendable {
    /// How the streaming part of a check ended.
    enum Outcome: Sendable, Equatable {
        /// The requested number of frames arrived.
        case completed
        /// The session failed.
        case failed(CaptureError)
        /// Ctrl-C or SIGTERM.
        case interrupted
        /// `--stream-to` could not be written.
        case outputFailed(String)
    }

    private struct State: ~Copyable {
        var records: [FrameRecord] = []
        var negotiated: NegotiatedFormat?
        var firstFrameAt: ContinuousClock.Instant?
        var decoder: JPEGDecoder?
        var writer: AtomicFileWriter?
    }

    private let target: Int
    private let state: Locked<State>
    private let ending = OutcomeLatch<Outcome>()

    /// Creates a recorder that completes after `target` frames, writing delivered frames to `writer`.
    init(target: Int, writer: sending AtomicFileWriter?) {
        self.target = target
        state = Locked(State(writer: writer))
    }

    /// Records a delivered frame.
    func frame(_ frame: VideoFrame) {
        state.withLock { state in
            guard ending.value == nil else { return }
            if state.firstFrameAt == nil { state.firstFrameAt = .now }
            let problem = Self.validate(frame, decoder: &state.decoder)
            if let writer = state.writer {
                do {
                    try writer.write(frame.data)
                } catch {
                    ending.set(.outputFailed("\(error)"))
                    return
                }
            }
            state.records.append(
                FrameRecord(
                    sequence: frame.sequence, droppedBefore: frame.droppedBefore,
                    timestampNanoseconds: frame.timestampNanoseconds, bytesUsed: frame.data.count, problem: problem))
            if state.records.count >= target { ending.set(.completed) }
        }
    }

    /// Records a frame the session dropped as damaged.
    func rejected(_ rejection: FrameRejection) {
        state.withLock { state in
            guard ending.value == nil else { return }
            if state.firstFrameAt == nil { state.firstFrameAt = .now }
            state.records.append(
                FrameRecord(
                    sequence: rejection.sequence, droppedBefore: rejection.droppedBefore,
                    timestampNanoseconds: rejection.timestampNanoseconds, bytesUsed: Int(rejection.bytesUsed),
                    problem: rejection.reason.description))
            if state.records.count >= target { ending.set(.completed) }
        }
    }

    /// Follows the session's phases: records the negotiated format, ends on failure.
    func phase(_ phase: CapturePhase) {
        state.withLock { state in
            switch phase {
            case .running(let negotiated), .waitingForLocation(let negotiated): state.negotiated = negotiated
            case .failed(let error): ending.set(.failed(error))
            default: break
            }
        }
    }

    /// Ends the run as interrupted.
    func interrupt() {
        ending.set(.interrupted)
    }

    /// Waits for the run to end; any number of callers may wait.
    func outcome() async -> Outcome { await ending.wait() }

    /// How the run ended, if it has.
    var peekOutcome: Outcome? { ending.value }

    /// The records, negotiated format and first-frame time so far.
    var snapshot: (records: [FrameRecord], negotiated: NegotiatedFormat?, firstFrameAt: ContinuousClock.Instant?) {
        state.withLock { ($0.records, $0.negotiated, $0.firstFrameAt) }
    }

    /// Commits the `--stream-to` file on success, discards it otherwise.
    func closeOutput(keep: Bool) throws(OutputError) {
        let writer = state.withLock { state -> AtomicFileWriter? in
            defer { state.writer = nil }
            return state.writer
        }
        guard let writer else { return }
        if keep { try writer.commit() } else { writer.discard() }
    }

    /// Why a delivered frame is invalid, or nil.
    private static func validate(_ frame: VideoFrame, decoder: inout JPEGDecoder?) -> String? {
        let format = frame.format
        if format.pixelFormat == .mjpeg || format.pixelFormat == .jpeg {
            do {
                if decoder == nil { decoder = try JPEGDecoder() }
                guard let decoder else { return "no JPEG decoder" }
                let image = try decoder.decode(frame.data)
                if image.width != Int(format.width) || image.height != Int(format.height) {
                    return "JPEG is \(image.width)x\(image.height), format says \(format.size)"
                }
                return nil
            } catch {
                return error.description
            }
        }
        if format.sizeImage > 0 && frame.data.count != Int(format.sizeImage) {
            return "\(frame.data.count) bytes, format needs \(format.sizeImage)"
        }
        return nil
    }
}
