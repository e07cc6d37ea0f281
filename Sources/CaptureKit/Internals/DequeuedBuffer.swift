/// A filled buffer taken from the driver with `VIDIOC_DQBUF`, before it is queued again.
@_spi(Testing) public struct DequeuedBuffer: Sendable {
    /// The buffer's index, to map it to its memory and to queue it again.
    public var index: UInt32
    /// Bytes of frame data in the buffer.
    public var bytesUsed: UInt32
    /// `V4L2_BUF_FLAG_*` bits.
    public var flags: BufferFlags
    /// The field (`V4L2_FIELD_*`).
    public var field: UInt32
    /// The driver's frame counter.
    public var sequence: UInt32
    /// The capture time, in nanoseconds on the clock ``flags`` names (normally CLOCK_MONOTONIC).
    public var timestampNanoseconds: Int64

    /// Creates a buffer record (what `VIDIOC_DQBUF` fills in).
    public init(
        index: UInt32, bytesUsed: UInt32, flags: BufferFlags, field: UInt32, sequence: UInt32,
        timestampNanoseconds: Int64
    ) {
        self.index = index
        self.bytesUsed = bytesUsed
        self.flags = flags
        self.field = field
        self.sequence = sequence
        self.timestampNanoseconds = timestampNanoseconds
    }
}
