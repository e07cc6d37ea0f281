/// A filled buffer taken from the driver with `VIDIOC_DQBUF`, before it is queued again.
struct DequeuedBuffer: Sendable {
    /// The buffer's index, to map it to its memory and to queue it again.
    var index: UInt32
    /// Bytes of frame data in the buffer.
    var bytesUsed: UInt32
    /// `V4L2_BUF_FLAG_*` bits.
    var flags: BufferFlags
    /// The field (`V4L2_FIELD_*`).
    var field: UInt32
    /// The driver's frame counter.
    var sequence: UInt32
    /// The capture time, in nanoseconds on the clock ``flags`` names (normally CLOCK_MONOTONIC).
    var timestampNanoseconds: Int64
}
