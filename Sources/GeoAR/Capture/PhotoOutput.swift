import ArcaptureCore
import CaptureKit
import Dispatch

/// Captures the next frame of a running session as a JPEG: AVCapturePhotoOutput's role.
///
/// Attach it with `CaptureSession/addOutput(_:)`, then call ``capturePhoto(quality:)``. An MJPEG
/// frame passes through without re-encoding (decoded once to check it, and completed with standard
/// Huffman tables when the camera left them out); a raw frame is encoded at the requested quality. Encoding runs on
/// the output's own queue, never on the session's.
///
/// `@unchecked Sendable`: pending requests and the attachment sit behind a `Locked`; the writer is
/// used only on `queue`.
public final class PhotoOutput: CaptureOutput, @unchecked Sendable {
    private struct Request {
        let quality: Int
        let continuation: CheckedContinuation<Result<Photo, PhotoCaptureError>, Never>
    }

    private struct State {
        var pending: [Request] = []
        var attached = false
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "arcapture.photo-output")
    /// Created on first use, on `queue`.
    private var writer: FrameJPEGWriter?

    /// Creates an output; attach it to a session before capturing.
    public init() {}

    /// The next frame the session delivers, as a JPEG.
    ///
    /// This method is thread-safe.
    ///
    /// - Parameter quality: 1–100, used when the frame must be encoded.
    /// - Throws: ``PhotoCaptureError``.
    public func capturePhoto(quality: Int = 90) async throws(PhotoCaptureError) -> Photo {
        let result = await withCheckedContinuation { continuation in
            let attached = state.withLock { state in
                if state.attached { state.pending.append(Request(quality: quality, continuation: continuation)) }
                return state.attached
            }
            if !attached { continuation.resume(returning: .failure(.notAttached)) }
        }
        return try result.get()
    }

    /// How many requests wait for a frame (for tests that must not emit a frame before asking).
    var pendingRequests: Int { state.withLock { $0.pending.count } }

    /// Called by the session when attached.
    public func attached() { state.withLock { $0.attached = true } }

    /// Called by the session, on its queue, with each valid frame.
    public func receive(_ frame: VideoFrame) {
        let requests = state.withLock { state -> [Request] in
            defer { state.pending = [] }
            return state.pending
        }
        guard !requests.isEmpty else { return }
        queue.async { [self] in
            for request in requests {
                request.continuation.resume(returning: photo(from: frame, quality: request.quality))
            }
        }
    }

    /// Called by the session when it stops or fails: pending requests fail.
    public func sessionEnded(_ error: CaptureError?) {
        let requests = state.withLock { state -> [Request] in
            defer { state.pending = [] }
            return state.pending
        }
        for request in requests { request.continuation.resume(returning: .failure(.sessionStopped(error))) }
    }

    /// - Important: Must be called on `queue`.
    private func photo(from frame: VideoFrame, quality: Int) -> Result<Photo, PhotoCaptureError> {
        dispatchPrecondition(condition: .onQueue(queue))
        do {
            if writer == nil { writer = try FrameJPEGWriter() }
            guard let writer else { return .failure(.conversion(.undecodable(.handleUnavailable))) }
            let (bytes, passedThrough) = try writer.jpeg(for: frame, quality: quality, validation: .decode)
            return .success(
                Photo(
                    data: bytes, sequence: frame.sequence, captureDate: frame.captureDate,
                    timestampNanoseconds: frame.timestampNanoseconds, size: frame.format.size,
                    passedThrough: passedThrough))
        } catch let error as FrameConversionError {
            return .failure(.conversion(error))
        } catch {
            return .failure(.conversion(.undecodable(.handleUnavailable)))
        }
    }
}
