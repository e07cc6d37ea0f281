import ArcaptureCore
import CaptureKit

/// What stands between choosing a live frame and writing it: the annotator of a ``GeoARView``.
///
/// - Important: Called only on the live capture's writer queue.
protocol LiveFrameStage: AnyObject {
    /// Looks at a frame chosen for writing (the `number`-th written, from 1) and says what to write.
    func process(_ frame: VideoFrame, number: Int) -> LiveStageOutcome

    /// Whether the stage wants to see frames that are not written too (a view's photo is asked
    /// for: a time-lapse's interval must not delay it); their outcome is then dropped.
    var wantsEveryFrame: Bool { get }

    /// Takes back the planes of an ``LiveStageOutcome/annotated(_:record:notSpliced:)`` or
    /// ``LiveStageOutcome/unposed(_:record:)`` frame once written.
    func recycle(_ image: consuming YCbCrImage)
}

/// What a ``LiveFrameStage`` made of a frame.
enum LiveStageOutcome {
    /// Write these planes (the frame with the overlay drawn) instead of the frame; log `record`.
    /// `notSpliced`: why a camera's JPEG frame was drawn on whole although splicing was on.
    case annotated(YCbCrImage, record: SidecarRecord?, notSpliced: String? = nil)
    /// Write these planes (the frame zoomed, nothing drawn: it has no pose); log `record`.
    case unposed(YCbCrImage, record: SidecarRecord?)
    /// Write this JPEG (the camera's frame spliced with the overlay) instead of the frame; log
    /// `record`.
    case annotatedJPEG([UInt8], record: SidecarRecord?)
    /// Write the frame as it came (it has no pose); log `record`.
    case passThrough(record: SidecarRecord?)
    /// The frame is damaged: drop it and count it, as damaged frames are.
    case damaged(String)
    /// The overlay cannot be drawn at all: end the capture.
    case failed(String)
}
