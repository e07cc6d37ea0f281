import ARCompositor
import GeoAR

/// Opens the style's font before any work, so a font that is missing (66) or is no font (65) is
/// said at once rather than frame by frame, and a name fontconfig does not know is said with the
/// font drawn instead (fontconfig always answers with some font), as are the labels' scripts no
/// installed font draws (``MapData/fontWarnings()``).
enum FontCheck {
    /// Nil when the font opens (after any warnings); else the exit status, the error said.
    static func check(_ mapData: MapData) -> ExitStatus? {
        do {
            for warning in try mapData.fontWarnings() { Terminal.warning(warning) }
            return nil
        } catch {
            Terminal.error(error.description)
            return error.isMissing ? .noInput : .dataError
        }
    }
}
