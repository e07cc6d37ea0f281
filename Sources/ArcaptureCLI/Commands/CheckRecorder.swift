import ArcaptureCore
import CaptureKit
import Dispatch
import Foundation
import GeoAR
import JPEGKit

/// Collects what `check` needs while a session streams: a record per frame (valid or rejected), the
/// negotiated format, and how the run ended. A raw frame must fill its format's size (checked as
/// it arrives), and an MJPEG frame must decode to the negotiated size.
///
/// MJPEG frames are decoded on a queue of their own, never on the session queue: decoding a
/// 1080p frame there held up the dequeue loop, and on a 2-buffer driver (v4l2loopback) the check
/// then reported the frames its own slowness lost as the camera's drops (15 of 30 fps measured).
/// The session has already checked each frame's structure (start and end markers); when the
/// decoder falls more than ``decodeBacklog`` frames behind, a frame is counted on that structure
/// check alone and the report says how many were decoded.
///
/// Called on the session queue (frames, rejections, phases), the validation queue and the signal
/// queue (interrupt); all state sits behind one `Locked`, and the decoder is the validation
/// queue's.
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
        var writer: AtomicFileWriter?
        /// MJPEG frames handed to the validation queue and not yet decoded.
        var decodesPending = 0
        /// The last delivered frame's bytes, to tell a frame that repeats it (a frozen picture).
        var previousData: [UInt8]?
    }

    /// How many MJPEG frames may wait for the decoder before frames are taken on their structure
    /// check alone: a few frames' worth of memory, enough to ride out a slow moment.
    static let decodeBacklog = 4

    private let target: Int
    private let state: Locked<State>
    private let ending = OutcomeLatch<Outcome>()
    private let validationQueue = DispatchQueue(label: "arcapture.check-validation")
    /// The decoder, created on first use; touched only on `validationQueue`.
    private let decoder = Locked<JPEGDecoder?>(nil)
    /// Why a compressed frame fails, or nil; nil here means libjpeg-turbo's decode (the tests give
    /// one they hold up, to show that a stalled decoder never holds up the frames).
    private let validation: (@Sendable ([UInt8], FrameSize) -> String?)?

    /// Creates a recorder that completes after `target` frames, writing delivered frames to `writer`.
    ///
    /// - Parameters:
    ///   - target: How many frames end the run.
    ///   - writer: Where delivered frames are written (`--stream-to`), or nil.
    ///   - validation: Why a compressed frame is invalid, or nil when it is valid; run on the
    ///     validation queue. Nil: decoded with libjpeg-turbo to the negotiated size.
    init(
        target: Int, writer: sending AtomicFileWriter?,
        validation: (@Sendable ([UInt8], FrameSize) -> String?)? = nil
    ) {
        self.target = target
        self.validation = validation
        state = Locked(State(writer: writer))
    }

    /// Records a delivered frame.
    func frame(_ frame: VideoFrame) {
        state.withLock { state in
            guard ending.value == nil else { return }
            if state.firstFrameAt == nil { state.firstFrameAt = .now }
            let format = frame.format
            let compressed = format.pixelFormat == .mjpeg || format.pixelFormat == .jpeg
            var problem: String?
            if !compressed, format.sizeImage > 0, frame.data.count != Int(format.sizeImage) {
                problem = "\(frame.data.count) bytes, format needs \(format.sizeImage)"
            }
            if let writer = state.writer {
                do {
                    try writer.write(frame.data)
                } catch {
                    ending.set(.outputFailed("\(error)"))
                    return
                }
            }
            let decodes = compressed && state.decodesPending < Self.decodeBacklog
            // memcmp, not Array's ==: a debug build compares a 1080p frame element by element.
            let repeats =
                state.previousData.map { previous in
                    previous.count == frame.data.count
                        && previous.withUnsafeBytes { a in
                            frame.data.withUnsafeBytes { b in
                                guard let a = a.baseAddress, let b = b.baseAddress else { return true }
                                return memcmp(a, b, previous.count) == 0
                            }
                        }
                } ?? false
            state.previousData = frame.data
            state.records.append(
                FrameRecord(
                    sequence: frame.sequence, droppedBefore: frame.droppedBefore,
                    timestampNanoseconds: frame.timestampNanoseconds, bytesUsed: frame.data.count, problem: problem,
                    structureOnly: compressed && !decodes, decoded: decodes,
                    luma: problem == nil && !compressed ? frame.lumaStatistics : nil, repeatsPrevious: repeats))
            if decodes {
                state.decodesPending += 1
                let index = state.records.count - 1
                let (data, size) = (frame.data, format.size)
                validationQueue.async { [self] in
                    let (problem, luma) =
                        validation.map { ($0(data, size), nil) } ?? decoded(data, size: size)
                    self.state.withLock { state in
                        state.records[index].problem = problem
                        state.records[index].luma = luma
                        state.decodesPending -= 1
                    }
                }
            }
            if state.records.count >= target { ending.set(.completed) }
        }
    }

    /// Waits until every frame handed to the decoder has been decoded.
    func validationFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            validationQueue.async { continuation.resume() }
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
        interruption.set(())
    }

    /// Set by Ctrl-C, even after the stream ended (the lifecycle's starts follow it).
    let interruption = OutcomeLatch<Void>()

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

    /// Why an MJPEG frame does not decode to `size`, or nil.
    ///
    /// - Important: Runs on the validation queue.
    /// Why a compressed frame is invalid (nil when it decodes to `size`), and its luma
    /// statistics when it decodes.
    private func decoded(_ data: [UInt8], size: FrameSize) -> (problem: String?, luma: LumaStatistics?) {
        dispatchPrecondition(condition: .onQueue(validationQueue))
        return decoder.withLock { decoder -> (String?, LumaStatistics?) in
            if decoder == nil {
                do {
                    decoder = try JPEGDecoder()
                } catch {
                    return (String(describing: error), nil)
                }
            }
            guard let decoder else { return ("no JPEG decoder", nil) }
            return Self.decode(data, size: size, with: decoder)
        }
    }

    /// Decodes an MJPEG frame with `decoder`: why it is invalid (nil when it decodes to `size`),
    /// and its luma statistics when it decodes (`check`'s stream and `--all-formats`' modes).
    static func decode(_ data: [UInt8], size: FrameSize, with decoder: JPEGDecoder) -> (
        problem: String?, luma: LumaStatistics?
    ) {
        do {
            let image = try decoder.decode(data)
            if image.width != Int(size.width) || image.height != Int(size.height) {
                return ("JPEG is \(image.width)x\(image.height), format says \(size)", nil)
            }
            return (nil, LumaStatistics(image))
        } catch {
            return (String(describing: error), nil)
        }
    }
}
