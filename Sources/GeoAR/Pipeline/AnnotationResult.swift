import ARCompositor
import Foundation

/// What a worker made of a frame.
enum AnnotationResult: Sendable {
    /// The frame to write, whether it was annotated (false: it had no pose and passes through), its
    /// sidecar record, its time (for `strftime` conversions in file names), the id of the marker
    /// drawn nearest its centre when the settings ask for it, and, for a JPEG frame drawn on while
    /// splicing is on, whether it was spliced, and what was drawn (nil when nothing was).
    case frame(
        FrameOutput, annotated: Bool, record: SidecarRecord, time: Date?, centre: String? = nil,
        timing: FrameTiming = FrameTiming(), splice: SpliceOutcome? = nil, drawn: FrameAnnotation? = nil)
    /// The frame could not be decoded: skipped, with why.
    case corrupt(String, record: SidecarRecord)
}
