import CFreeType
import Foundation

/// FreeType and fontconfig for one text renderer: finds font files by name and by the characters
/// they cover, and opens faces. Owns C handles; used from one thread at a time.
final class FontLibrary {
    private var library: FT_Library?
    private let config: OpaquePointer?
    /// Opened faces by file path.
    private var faces: [String: FT_Face] = [:]

    init() throws(FontError) {
        var handle: FT_Library?
        guard FT_Init_FreeType(&handle) == 0, handle != nil else {
            throw FontError(font: "-", problem: "FreeType could not be initialised")
        }
        library = handle
        config = FcInitLoadConfigAndFonts()
    }

    deinit {
        for face in faces.values { FT_Done_Face(face) }
        if let config { FcConfigDestroy(config) }
        FT_Done_FreeType(library)
    }

    /// The file for `name`: the name itself when it is a readable file, else fontconfig's best
    /// match for it as a pattern (`DejaVu Sans`, `Noto Sans:bold`).
    func file(forName name: String) throws(FontError) -> String {
        if name.contains("/") {
            guard FileManager.default.isReadableFile(atPath: name) else {
                throw FontError(font: name, problem: "no such font file")
            }
            return name
        }
        guard
            let pattern = name.withCString({ FcNameParse(UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) })
        else { throw FontError(font: name, problem: "not a fontconfig pattern") }
        defer { FcPatternDestroy(pattern) }
        guard let file = match(pattern) else { throw FontError(font: name, problem: "fontconfig found no font") }
        return file
    }

    /// A font file that covers `scalar`, or nil when fontconfig knows none.
    func file(covering scalar: Unicode.Scalar) -> String? {
        guard let pattern = FcPatternCreate(), let characters = FcCharSetCreate() else { return nil }
        defer {
            FcPatternDestroy(pattern)
            FcCharSetDestroy(characters)
        }
        FcCharSetAddChar(characters, FcChar32(scalar.value))
        FcPatternAddCharSet(pattern, "charset", characters)
        return match(pattern, mustCover: scalar)
    }

    private func match(_ pattern: OpaquePointer, mustCover scalar: Unicode.Scalar? = nil) -> String? {
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        if let scalar {
            var covered: OpaquePointer?
            guard FcPatternGetCharSet(matched, "charset", 0, &covered) == FcResultMatch,
                FcCharSetHasChar(covered, FcChar32(scalar.value)) != 0
            else { return nil }
        }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(matched, "file", 0, &file) == FcResultMatch, let file else { return nil }
        return String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
    }

    /// The face in `file` (its first), opened once and kept.
    func face(file: String) throws(FontError) -> FT_Face {
        if let face = faces[file] { return face }
        var face: FT_Face?
        guard FT_New_Face(library, file, 0, &face) == 0, let face else {
            throw FontError(font: file, problem: "FreeType cannot read it")
        }
        faces[file] = face
        return face
    }
}
