import Dispatch

/// An open, streaming device and the resources it holds: mapped buffers, the readiness watcher and
/// the stall timer.
///
/// - Important: Owned by one ``CaptureSession``'s queue; every member is touched only there.
final class ActiveStream {
    let driver: any VideoDeviceDriver
    let negotiated: NegotiatedFormat
    let buffers: [UnsafeMutableRawBufferPointer]
    /// CLOCK_MONOTONIC when `VIDIOC_STREAMON` returned.
    let streamOnNanoseconds: Int64
    /// CLOCK_REALTIME minus CLOCK_MONOTONIC, read once when the stream started, to map V4L2
    /// timestamps to wall-clock time without following later clock steps.
    let realtimeOffsetNanoseconds: Int64
    var readinessWatcher: ReadinessWatcher?
    var stallTimer: (any DispatchSourceTimer)?
    var lastSequence: UInt32?
    var framesSeen = 0
    var frameTimeout: Duration?

    init(driver: any VideoDeviceDriver, negotiated: NegotiatedFormat, buffers: [UnsafeMutableRawBufferPointer]) {
        self.driver = driver
        self.negotiated = negotiated
        self.buffers = buffers
        streamOnNanoseconds = MonotonicClock.nanoseconds()
        realtimeOffsetNanoseconds = MonotonicClock.realtimeNanoseconds() - streamOnNanoseconds
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
