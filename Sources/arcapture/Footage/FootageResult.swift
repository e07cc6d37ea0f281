import ARCompositor

/// What a worker made of a frame.
enum FootageResult: Sendable {
    /// The frame to write, whether it was annotated (false: it had no pose and passes through), and
    /// its sidecar record.
    case frame(FrameOutput, annotated: Bool, record: FootageRecord)
    /// The frame could not be decoded: skipped, with why.
    case corrupt(String, record: FootageRecord)
}
