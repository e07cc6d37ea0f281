import CaptureKit
import Footage

/// Where a frame of a video file sits in it, for a video written from it: its presentation
/// timestamp in the input's time base and how many copied packets came before it.
struct FrameTiming: Sendable {
    var timestamp: Int64?
    var copyMark: Int?

    init(timestamp: Int64? = nil, copyMark: Int? = nil) {
        self.timestamp = timestamp
        self.copyMark = copyMark
    }

    /// The frame's own.
    init(of frame: FootageFrame) {
        self.init(timestamp: frame.presentationTimestamp, copyMark: frame.streamCopyMark)
    }
}
