import ArcaptureCore
import Dispatch

/// An open, streaming device and the resources it holds: mapped buffers, the readiness watcher and
/// the stall timer.
///
/// - Important: Owned by one ``CaptureSession``'s queue; every member is touched only there.
final class ActiveStream {
    let driver: any VideoDeviceDriver
    let negotiated: NegotiatedFormat
    let buffers: [UnsafeMutableRawBufferPointer]
    /// CLOCK_MONOTONIC just before `VIDIOC_STREAMON` was issued: every buffer of this stream is
    /// filled after it.
    let streamOnNanoseconds: Int64
    /// CLOCK_REALTIME minus CLOCK_MONOTONIC, read once when the stream started, to map V4L2
    /// timestamps to wall-clock time without following later clock steps. Read as a pair of its
    /// own: against `streamOnNanoseconds` it would carry the time `VIDIOC_STREAMON` took (a UVC
    /// camera's can take a few hundred milliseconds), and every frame's time would be that late.
    let realtimeOffsetNanoseconds: Int64
    var readinessWatcher: ReadinessWatcher?
    var stallTimer: (any DispatchSourceTimer)?
    var lastSequence: UInt32?
    var framesSeen = 0
    /// Buffers dequeued so far, stale ones included (see ``isStale(_:)``).
    var buffersDequeued = 0
    var frameTimeout: Duration?
    /// CLOCK_MONOTONIC when the stall timer was last pushed back: at arming, then at every drain.
    var lastDrainNanoseconds: Int64 = 0

    init(
        driver: any VideoDeviceDriver, negotiated: NegotiatedFormat, buffers: [UnsafeMutableRawBufferPointer],
        streamOnNanoseconds: Int64
    ) {
        self.driver = driver
        self.negotiated = negotiated
        self.buffers = buffers
        self.streamOnNanoseconds = streamOnNanoseconds
        realtimeOffsetNanoseconds = MonotonicClock.realtimeOffsetNanoseconds()
    }

    /// Whether a dequeued buffer was filled before this stream started, so holds no frame of it.
    ///
    /// v4l2loopback does this: `VIDIOC_REQBUFS` resets every buffer's metadata (sequence 0,
    /// `bytesused` the whole buffer, the time of the request) and the first `VIDIOC_DQBUF` then
    /// returns the newest buffer a writer filled before the reader came. Taking it for a frame
    /// counted the jump from its sequence 0 to the writer's position as dozens of dropped frames.
    /// Only the first round of buffers can be such a leftover, and only a timestamp on the
    /// stream's clock says so: a copied timestamp (another process's clock) or none (0) never does.
    func isStale(_ buffer: DequeuedBuffer) -> Bool {
        defer { buffersDequeued += 1 }
        guard buffersDequeued < buffers.count, framesSeen == 0 else { return false }
        return buffer.timestampNanoseconds > 0 && buffer.timestampNanoseconds < streamOnNanoseconds
            && !buffer.flags.contains(.timestampCopy)
    }

    /// Frames skipped before `sequence`, and records it as the latest. Sequence numbers wrap at
    /// 2³²; a jump backwards (a driver restarting its counter) counts as no drop.
    func gap(before sequence: UInt32) -> UInt32 {
        defer { lastSequence = sequence }
        guard let last = lastSequence else { return 0 }
        let gap = sequence &- last &- 1
        return gap < 1 << 31 ? gap : 0
    }
}
