import CText

/// FreeType and HarfBuzz for one text renderer: opens faces, sizes them and keeps them, with the
/// HarfBuzz font that shapes text in each. Owns C handles; used from one thread at a time
/// (FreeType's handles and HarfBuzz's FreeType fonts are not thread-safe). Font files are found by
/// ``FontCatalog``.
final class FontLibrary {
    private var library: FT_Library?
    /// Opened faces by file path.
    private var faces: [String: FT_Face] = [:]
    /// Each sized face's HarfBuzz font and the factor from its size to the one asked for.
    private var sized: [UnsafeMutableRawPointer: SizedFace] = [:]

    /// A face set to a size: the HarfBuzz font that shapes in it, and `scale`, what its glyphs and
    /// positions are multiplied by to reach the size asked for (1 for an outline font; a bitmap
    /// font such as Noto Color Emoji comes in fixed sizes, 109 px there, and is scaled down).
    struct SizedFace {
        /// The font file.
        let file: String
        let face: FT_Face
        let shaper: OpaquePointer
        let scale: Double
        /// Glyphs come in colour (BGRA bitmaps: colour emoji).
        let isColor: Bool
        /// FreeType's flags for loading a glyph from this face.
        let loadFlags: Int32
    }

    init() throws(FontError) {
        var handle: FT_Library?
        guard FT_Init_FreeType(&handle) == 0, handle != nil else {
            throw FontError(font: "-", problem: "FreeType could not be initialised")
        }
        library = handle
    }

    deinit {
        // HarfBuzz's fonts hold a reference to their faces: they go first.
        for face in sized.values { hb_font_destroy(face.shaper) }
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

    /// The face in `file` set to `pixelSize` (its em), with its HarfBuzz font; nil when it cannot be
    /// sized (a bitmap font with no sizes).
    ///
    /// An outline font is set to the size. A bitmap-only font is set to its smallest size at least
    /// as large (else its largest), and ``SizedFace/scale`` brings that to `pixelSize`. Each face is
    /// sized once: a renderer draws at one size.
    func sized(file: String, pixelSize: Int) throws(FontError) -> SizedFace? {
        let face = try face(file: file)
        let key = UnsafeMutableRawPointer(face)
        if let known = sized[key] { return known }
        var scale = 1.0
        let isScalable = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        if isScalable {
            guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize)) == 0 else { return nil }
        } else {
            let count = Int(face.pointee.num_fixed_sizes)
            guard count > 0, let sizes = face.pointee.available_sizes else { return nil }
            let ems = (0..<count).map { Double(sizes[$0].y_ppem) / 64 }
            let chosen =
                ems.indices.filter { ems[$0] >= Double(pixelSize) }.min { ems[$0] < ems[$1] }
                ?? ems.indices.max { ems[$0] < ems[$1] } ?? 0
            guard FT_Select_Size(face, FT_Int(chosen)) == 0, ems[chosen] > 0 else { return nil }
            scale = Double(pixelSize) / ems[chosen]
        }
        let isColor = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        // Outlines hinted lightly (vertically only), as before shaping came; colour glyphs as
        // their bitmaps.
        let loadFlags = Int32(isColor ? arcapture_ft_load_color : arcapture_ft_load_target_light)
        guard let shaper = hb_ft_font_create_referenced(face) else { return nil }
        hb_ft_font_set_load_flags(shaper, loadFlags)
        let made = SizedFace(
            file: file, face: face, shaper: shaper, scale: scale, isColor: isColor, loadFlags: loadFlags)
        sized[key] = made
        return made
    }
}
