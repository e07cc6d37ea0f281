import ArcaptureCore
import CMicroHTTPD
import CaptureKit

/// One `GET /events` connection: the messages waiting to be sent and the one being sent.
///
/// Waiting messages are coalesced by kind (a client that reads slowly gets the newest phase, not
/// every phase it missed), so what one client holds is bounded by the number of kinds.
///
/// - Important: ``read(into:capacity:)`` and ``ended()`` run on the server's polling thread, which
///   owns `sending`, `offset` and `isSuspended`; ``offer(_:)`` and ``close()`` come from the
///   event feed's queue and touch only the locked state and `MHD_resume_connection` (callable
///   from any thread).
final class EventStreamClient: StreamingResponse, @unchecked Sendable {
    private struct Waiting {
        var events: [ServerSentEvent] = []
        /// The connection is suspended for want of a message.
        var suspended = false
        var closed = false
    }

    private let connection: OpaquePointer
    private let suspensions: Locked<Int>
    private let waiting = Locked(Waiting())
    private let onEnd: @Sendable (EventStreamClient) -> Void
    private var sending: [UInt8]
    private var offset = 0
    private var isSuspended = false

    /// A client that first gets the stream's preamble and `initial`.
    init(
        connection: OpaquePointer, initial: [ServerSentEvent], suspensions: Locked<Int>,
        ended: @escaping @Sendable (EventStreamClient) -> Void
    ) {
        self.connection = connection
        self.suspensions = suspensions
        onEnd = ended
        sending = ServerSentEvent.preamble + initial.flatMap(\.bytes)
    }

    /// Queues `events`, each replacing a waiting one of its kind, and wakes the connection.
    func offer(_ events: [ServerSentEvent]) {
        let wake = waiting.withLock { state -> Bool in
            guard !state.closed else { return false }
            for event in events {
                if let index = state.events.firstIndex(where: { $0.kind == event.kind }) {
                    state.events[index] = event
                } else {
                    state.events.append(event)
                }
            }
            defer { state.suspended = false }
            return state.suspended
        }
        if wake { MHD_resume_connection(connection) }
    }

    /// Ends the stream once what is being sent is sent.
    func close() {
        let wake = waiting.withLock { state -> Bool in
            state.closed = true
            defer { state.suspended = false }
            return state.suspended
        }
        if wake { MHD_resume_connection(connection) }
    }

    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        if isSuspended {
            isSuspended = false
            suspensions.withLock { $0 -= 1 }
        }
        if offset == sending.count {
            let next = waiting.withLock { state -> [UInt8]? in
                if !state.events.isEmpty {
                    defer { state.events = [] }
                    return state.events.flatMap(\.bytes)
                }
                if state.closed { return nil }
                // Suspended under the lock: a message offered from now on finds `suspended` set
                // and resumes the connection, so none is missed.
                state.suspended = true
                isSuspended = true
                suspensions.withLock { $0 += 1 }
                MHD_suspend_connection(connection)
                return []
            }
            guard let next else { return arcapture_mhd_end_of_stream }
            guard !next.isEmpty else { return 0 }
            sending = next
            offset = 0
        }
        let count = min(capacity, sending.count - offset)
        sending.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + offset, byteCount: count)
        }
        offset += count
        return count
    }

    func ended() {
        if isSuspended {
            isSuspended = false
            suspensions.withLock { $0 -= 1 }
        }
        // The connection is going: nothing more is offered, and it is never resumed again.
        waiting.withLock { state in
            state.closed = true
            state.suspended = false
        }
        onEnd(self)
    }
}
