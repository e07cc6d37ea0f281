import ArcaptureCore
import CMicroHTTPD
import CaptureKit
import Foundation
import GeoAR

/// One `GET /stream` connection: the frame it is sending and how far it got.
///
/// - Important: Its mutable state belongs to the server's polling thread (libmicrohttpd calls
///   ``read(into:capacity:)`` only there). ``resume()`` comes from the publishing thread and
///   touches only the connection, through `MHD_resume_connection`, which may be called from any
///   thread.
final class StreamClient: BroadcastWaiter, StreamingResponse, @unchecked Sendable {
    /// The `key=` the client named itself with, if any.
    let key: String?
    /// The peer's address, for `/state`.
    let peer: String
    /// When it connected.
    let connectedAt = Date()
    private let connection: OpaquePointer
    private let broadcast: FrameBroadcast
    private let suspensions: Locked<Int>
    private var frame: BroadcastFrame?
    private var offset = 0
    private var lastSequence: UInt64 = 0
    private var isSuspended = false
    /// Frames sent whole.
    let framesSent = Locked(0)

    private let onEnd: @Sendable (StreamClient) -> Void
    /// Told, for each frame, how long after its publication its last byte was handed to the socket.
    private let delivered: @Sendable (Duration) -> Void

    init(
        connection: OpaquePointer, key: String?, peer: String, broadcast: FrameBroadcast, suspensions: Locked<Int>,
        delivered: @escaping @Sendable (Duration) -> Void = { _ in },
        ended: @escaping @Sendable (StreamClient) -> Void
    ) {
        self.connection = connection
        self.delivered = delivered
        onEnd = ended
        self.key = key
        self.peer = peer
        self.broadcast = broadcast
        self.suspensions = suspensions
        broadcast.addViewer()
    }

    /// Copies the next bytes of the stream into `buffer`: the rest of the current part, or the
    /// newest frame's part; 0 after suspending the connection until there is one; end of stream
    /// once the broadcast is closed.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        if isSuspended {
            isSuspended = false
            suspensions.withLock { $0 -= 1 }
        }
        if frame == nil || offset == frame?.part.count {
            switch broadcast.next(after: lastSequence, for: self) {
            case .frame(let next):
                frame = next
                offset = 0
                lastSequence = next.sequence
            case .suspended:
                return 0
            case .closed:
                return arcapture_mhd_end_of_stream
            }
        }
        guard let frame else { return arcapture_mhd_end_with_error }
        let count = min(capacity, frame.part.count - offset)
        frame.part.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            UnsafeMutableRawPointer(buffer).copyMemory(from: base + offset, byteCount: count)
        }
        offset += count
        if offset == frame.part.count {
            framesSent.withLock { $0 += 1 }
            delivered(ContinuousClock.now - frame.publishedAt)
        }
        return count
    }

    /// Called by the broadcast, under its lock, from ``read(into:capacity:)`` on the polling thread.
    func suspend() {
        isSuspended = true
        suspensions.withLock { $0 += 1 }
        MHD_suspend_connection(connection)
    }

    func resume() {
        MHD_resume_connection(connection)
    }

    /// The connection is closed (libmicrohttpd frees the response): nothing is sent any more.
    func ended() {
        if isSuspended {
            isSuspended = false
            suspensions.withLock { $0 -= 1 }
        }
        broadcast.removeViewer()
        onEnd(self)
    }
}
