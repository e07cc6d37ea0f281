import CFreeType

/// FreeType for one text renderer: opens faces and keeps them. Owns C handles; used from one thread
/// at a time (FreeType's handles are not thread-safe). Font files are found by ``FontCatalog``.
final class FontLibrary {
    private var library: FT_Library?
    /// Opened faces by file path.
    private var faces: [String: FT_Face] = [:]

    init() throws(FontError) {
        var handle: FT_Library?
        guard FT_Init_FreeType(&handle) == 0, handle != nil else {
            throw FontError(font: "-", problem: "FreeType could not be initialised")
        }
        library = handle
    }

    deinit {
        for face in faces.values { FT_Done_Face(face) }
        FT_Done_FreeType(library)
    }

    /// The face in `file` (its first), opened once and kept.
    func face(file: String) throws(FontError) -> FT_Face {
        if let face = faces[file] { return face }
        var face: FT_Face?
        guard FT_New_Face(library, file, 0, &face) == 0, let face else {
            throw FontError(font: file, problem: "not a font FreeType can read")
        }
        faces[file] = face
        return face
    }
}
