/// The state flags the driver attaches to a captured buffer (`V4L2_BUF_FLAG_*`).
public struct BufferFlags: OptionSet, Hashable, Sendable {
    /// The flag bits.
    public let rawValue: UInt32

    /// Wraps flag bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A key frame (for compressed streams).
    public static let keyFrame = BufferFlags(rawValue: 0x0000_0008)
    /// The driver detected an error while filling this buffer; its data may be damaged.
    public static let error = BufferFlags(rawValue: 0x0000_0040)
    /// The timestamp comes from CLOCK_MONOTONIC (the normal case for cameras).
    public static let timestampMonotonic = BufferFlags(rawValue: 0x0000_2000)
    /// The timestamp was copied from an output buffer (memory-to-memory devices).
    public static let timestampCopy = BufferFlags(rawValue: 0x0000_4000)
    /// The timestamp was taken at the start of exposure rather than at the end of the frame.
    public static let timestampStartOfExposure = BufferFlags(rawValue: 0x0001_0000)
    /// The last buffer of a stream.
    public static let last = BufferFlags(rawValue: 0x0010_0000)

    /// The bits that say which clock the timestamp is on.
    static let timestampTypeMask: UInt32 = 0x0000_E000

    /// Whether the timestamp is on CLOCK_MONOTONIC, the clock CaptureKit maps to wall-clock time.
    public var hasMonotonicTimestamp: Bool { rawValue & Self.timestampTypeMask == Self.timestampMonotonic.rawValue }
}
