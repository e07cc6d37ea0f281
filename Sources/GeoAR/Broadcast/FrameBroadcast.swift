import ArcaptureCore
import CaptureKit
import Foundation

/// The newest annotated frame, handed from the pipeline to every client of a `LiveViewServer`.
///
/// The pipeline publishes each frame once (encoded once, whatever the number of clients); a
/// client that finished sending a frame takes the newest one, so a slow client skips frames
/// instead of queueing them and never holds back the camera or the other clients. Each client
/// holds at most one frame.
///
/// This type is thread-safe.
public final class FrameBroadcast: Equatable, Sendable {
    /// What a client asking for a frame gets.
    package enum Next {
        /// A frame newer than the one it has.
        case frame(BroadcastFrame)
        /// Nothing newer yet: the client was suspended and is resumed when there is.
        case suspended
        /// The broadcast is closed: end the stream.
        case closed
    }

    private struct State {
        var latest: BroadcastFrame?
        var waiting: [any BroadcastWaiter] = []
        var closed = false
        /// The last frame's number (camera frames and placeholders together).
        var sequence: UInt64 = 0
        var published: UInt64 = 0
        var placeholders: UInt64 = 0
        /// Clients of the stream, connected now.
        var viewers = 0
        /// When the last camera frame was published (or the broadcast made).
        var lastFrameAt = ContinuousClock.now
        /// When the last frames were published (monotonic), oldest first, for the rate.
        var recent: [ContinuousClock.Instant] = []
    }

    /// The window ``measuredRate`` is measured over.
    private static let rateWindow: Duration = .seconds(2)

    private let state = Locked(State())

    /// An open broadcast with no frame yet.
    public init() {}

    /// Broadcasts are the same when they are one object.
    public static func == (left: FrameBroadcast, right: FrameBroadcast) -> Bool { left === right }

    /// The newest frame, if any was published.
    public var latest: BroadcastFrame? { state.withLock { $0.latest } }

    /// How many camera frames were published.
    public var publishedCount: UInt64 { state.withLock { $0.published } }

    /// How many placeholder frames were published (while no camera frame came).
    public var placeholderCount: UInt64 { state.withLock { $0.placeholders } }

    /// How long since the last camera frame was published (since the broadcast was made, before
    /// the first).
    public var timeSinceFrame: Duration { state.withLock { ContinuousClock.now - $0.lastFrameAt } }

    /// Frames published per second over the last two seconds (0 when none was).
    public var measuredRate: Double {
        state.withLock { state in
            let now = ContinuousClock.now
            let recent = state.recent.filter { now - $0 <= Self.rateWindow }
            guard let first = recent.first, recent.count > 1 else { return 0 }
            let seconds = (now - first).seconds
            return seconds > 0 ? Double(recent.count - 1) / seconds : 0
        }
    }

    /// How many clients watch the stream now (``LiveCaptureSettings/idleSlowdown`` asks).
    public var viewerCount: Int { state.withLock { $0.viewers } }

    /// A stream client connected.
    package func addViewer() { state.withLock { $0.viewers += 1 } }

    /// A stream client's connection closed.
    package func removeViewer() { state.withLock { $0.viewers -= 1 } }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Makes `jpeg`, a camera frame, the newest frame and wakes every waiting client.
    @discardableResult
    public func publish(_ jpeg: [UInt8], capturedAt: Date) -> BroadcastFrame? {
        publish(jpeg, capturedAt: capturedAt, isPlaceholder: false)
    }

    /// Makes `jpeg`, a frame saying why no camera frame comes, the newest frame: clients keep
    /// receiving frames (and stay connected) while the camera is away. It counts in neither
    /// ``publishedCount`` nor ``measuredRate`` and does not reset ``timeSinceFrame``.
    @discardableResult
    public func publishPlaceholder(_ jpeg: [UInt8]) -> BroadcastFrame? {
        publish(jpeg, capturedAt: Date(), isPlaceholder: true)
    }

    private func publish(_ jpeg: [UInt8], capturedAt: Date, isPlaceholder: Bool) -> BroadcastFrame? {
        let (frame, waiting) = state.withLock { state -> (BroadcastFrame?, [any BroadcastWaiter]) in
            guard !state.closed else { return (nil, []) }
            state.sequence += 1
            let frame = BroadcastFrame(
                sequence: state.sequence, capturedAt: capturedAt, jpeg: jpeg, isPlaceholder: isPlaceholder)
            state.latest = frame
            if isPlaceholder {
                state.placeholders += 1
            } else {
                state.published += 1
                let now = ContinuousClock.now
                state.lastFrameAt = now
                state.recent.removeAll { now - $0 > Self.rateWindow }
                state.recent.append(now)
            }
            defer { state.waiting = [] }
            return (frame, state.waiting)
        }
        for waiter in waiting { waiter.resume() }
        return frame
    }

    /// Ends every stream: waiting clients are woken and find the broadcast closed.
    public func close() {
        let waiting = state.withLock { state -> [any BroadcastWaiter] in
            state.closed = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }

    /// The newest frame when it is newer than `sequence`; else `client` is suspended (under the
    /// lock, so no frame published meanwhile is missed) and resumed by the next ``publish(_:capturedAt:)``.
    package func next(after sequence: UInt64, for client: any BroadcastWaiter) -> Next {
        state.withLock { state in
            if state.closed { return .closed }
            if let latest = state.latest, latest.sequence > sequence { return .frame(latest) }
            client.suspend()
            state.waiting.append(client)
            return .suspended
        }
    }
}
