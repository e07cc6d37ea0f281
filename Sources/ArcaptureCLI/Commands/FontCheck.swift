import ARCompositor

/// Opens the style's font before any work, so a font that is missing (66) or is no font (65) is
/// said at once rather than frame by frame, and a name fontconfig does not know is said with the
/// font drawn instead (fontconfig always answers with some font).
enum FontCheck {
    /// Nil when the font opens (after any note); else the exit status, the error said.
    static func check(_ style: OverlayStyle) -> ExitStatus? {
        do {
            let compositor = try Compositor(style: style)
            if let note = compositor.fontNote { Terminal.warning(note) }
            return nil
        } catch {
            Terminal.error(error.description)
            return error.isMissing ? .noInput : .dataError
        }
    }
}
