/// The names one run has given its frame files, so that a frame is never given the name of an
/// earlier frame of the same run (which would replace it while both are counted written).
///
/// Only a template without a counter (`%n`) can repeat a name: its names come from the frames'
/// times alone (`%H%M%S` at 30 fps, photos with one EXIF time). Names are kept as hashes (8 bytes
/// a frame, not the names' tens: hours of footage are hundreds of thousands of frames); two
/// different names with one hash would be refused too, at odds of about one in 10^12 for a
/// million frames.
///
/// - Important: Not thread-safe; it belongs to the writer that owns the files.
struct FrameNameLedger {
    private let template: OutputTemplate
    /// Nil when the template counts frames (every name differs).
    private var names: Set<Int>?

    init(template: OutputTemplate) {
        self.template = template
        names = template.timeResolution == nil ? nil : []
    }

    /// Takes `name` for the next frame.
    ///
    /// - Throws: ``OutputError`` when an earlier frame of this run has it, with the fix.
    mutating func claim(_ name: String) throws(OutputError) {
        guard names?.insert(name.hashValue).inserted == false else { return }
        throw OutputError(
            path: name,
            reason:
                "an earlier frame of this run has that name (frames too close together for '\(template.pattern)'): "
                + "add %n (the frame number) or %L (milliseconds)")
    }
}
