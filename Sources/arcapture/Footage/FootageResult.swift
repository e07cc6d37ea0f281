import ARCompositor

/// What a worker made of a frame.
enum FootageResult: Sendable {
    /// The frame to write, and whether it was annotated (false: it had no pose and passes through).
    case frame(FrameOutput, annotated: Bool)
    /// The frame could not be decoded: skipped, with why.
    case corrupt(String)
}
