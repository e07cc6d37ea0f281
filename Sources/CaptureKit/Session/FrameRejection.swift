import ArcaptureCore

/// A frame the session dropped because its data cannot be trusted, and why.
///
/// Damaged frames are normal with real cameras (cheap webcams truncate MJPEG under load, USB errors
/// set `V4L2_BUF_FLAG_ERROR`); a session drops and counts them and keeps streaming.
public struct FrameRejection: Hashable, Sendable {
    /// Why a frame was dropped.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The driver flagged the buffer with `V4L2_BUF_FLAG_ERROR`.
        case driverError
        /// The buffer holds no data.
        case empty
        /// A raw frame shorter than its format needs.
        case short(expected: UInt32, received: UInt32)
        /// An MJPEG frame that is not a whole JPEG image.
        case malformedJPEG(JPEGStructure.Problem)

        /// One phrase, such as `truncated JPEG (no end-of-image marker)`.
        public var description: String {
            switch self {
            case .driverError: "flagged as damaged by the driver"
            case .empty: "empty buffer"
            case .short(let expected, let received): "short frame (\(received) of \(expected) bytes)"
            case .malformedJPEG(let problem): problem.description
            }
        }
    }

    /// The driver's frame counter for the dropped frame.
    public var sequence: UInt32
    /// Frames the driver skipped right before this one.
    public var droppedBefore: UInt32
    /// Bytes the driver reported.
    public var bytesUsed: UInt32
    /// The driver's timestamp in nanoseconds.
    public var timestampNanoseconds: Int64
    /// Why it was dropped.
    public var reason: Reason

    /// Creates a rejection record.
    public init(sequence: UInt32, droppedBefore: UInt32, bytesUsed: UInt32, timestampNanoseconds: Int64, reason: Reason)
    {
        self.sequence = sequence
        self.droppedBefore = droppedBefore
        self.bytesUsed = bytesUsed
        self.timestampNanoseconds = timestampNanoseconds
        self.reason = reason
    }
}
