import ArcaptureCore

/// A camera view's ``GeoARView/capturePhoto(quality:)`` requests not yet answered: added by any
/// task, taken by the view's frame stage on the live capture's writer queue with the next frame it
/// draws, failed all at once when the view ends.
///
/// Thread-safe: everything sits behind one lock; continuations are resumed outside it.
final class PendingPhotos: Sendable {
    typealias Continuation = CheckedContinuation<Result<ViewPhoto, ViewPhotoError>, Never>

    struct Request {
        var id: UInt64
        var quality: Int
        var continuation: Continuation
    }

    private struct State {
        var requests: [Request] = []
        var nextID: UInt64 = 0
        /// Cancelled before they were added (the cancellation handler can run first).
        var cancelled: Set<UInt64> = []
        var accepting = false
        var ended = false
    }

    private let state = Locked(State())

    /// A new request's id.
    func makeID() -> UInt64 {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// Starts taking requests (the view is presented).
    func open() { state.withLock { $0.accepting = true } }

    /// Adds a request, or answers it at once when it cannot be served (not presented, ended,
    /// cancelled already).
    func add(id: UInt64, quality: Int, _ continuation: Continuation) {
        let refusal = state.withLock { state -> ViewPhotoError? in
            if state.cancelled.remove(id) != nil { return .cancelled }
            if state.ended { return .viewEnded }
            if !state.accepting { return .notPresented }
            state.requests.append(Request(id: id, quality: quality, continuation: continuation))
            return nil
        }
        if let refusal { continuation.resume(returning: .failure(refusal)) }
    }

    /// Answers request `id` as cancelled (or notes it, if it is not added yet).
    func cancel(id: UInt64) {
        let request = state.withLock { state -> Request? in
            guard let index = state.requests.firstIndex(where: { $0.id == id }) else {
                state.cancelled.insert(id)
                return nil
            }
            return state.requests.remove(at: index)
        }
        request?.continuation.resume(returning: .failure(.cancelled))
    }

    /// Whether a request waits for a frame.
    var isWaiting: Bool { waiting > 0 }

    /// How many requests wait for a frame.
    var waiting: Int { state.withLock { $0.requests.count } }

    /// Takes every waiting request, to answer with the frame in hand.
    func take() -> [Request] {
        state.withLock { state in
            defer { state.requests = [] }
            return state.requests
        }
    }

    /// Fails every waiting request and every later one: the view ended.
    func close() {
        let requests = state.withLock { state in
            defer {
                state.ended = true
                state.requests = []
            }
            return state.requests
        }
        for request in requests { request.continuation.resume(returning: .failure(.viewEnded)) }
    }
}
