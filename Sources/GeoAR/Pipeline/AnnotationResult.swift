import ARCompositor
import Foundation

/// What a worker made of a frame.
enum AnnotationResult: Sendable {
    /// The frame to write, whether it was annotated (false: it had no pose and passes through), its
    /// sidecar record, its time (for `strftime` conversions in file names), and the id of the
    /// marker drawn nearest its centre when the settings ask for it.
    case frame(
        FrameOutput, annotated: Bool, record: SidecarRecord, time: Date?, centre: String? = nil,
        timing: FrameTiming = FrameTiming())
    /// The frame could not be decoded: skipped, with why.
    case corrupt(String, record: SidecarRecord)
}
