import CFreeType
import Foundation

/// Renders single lines of UTF-8 text with FreeType, in fonts found through fontconfig.
///
/// - Fonts: a fontconfig name (`DejaVu Sans`, the default, or `Noto Sans:bold`) or a font file.
///   A character the font lacks is taken from a fallback font fontconfig finds for it (a Cyrillic,
///   Greek or CJK font), so names in any script the installed fonts cover are drawn; characters no
///   font covers are counted in ``RenderedText/missingGlyphs``.
/// - Layout: left to right, with the font's kerning; no complex shaping (Arabic joining, Indic
///   reordering), which would need HarfBuzz.
/// - Glyphs are rendered once per font and size and kept; whole lines are kept too (a label's text
///   repeats frame after frame), so steady-state drawing renders nothing.
///
/// Not thread-safe: one renderer per drawing thread.
public final class TextRenderer {
    /// The pixel size (em height).
    public let pixelSize: Int
    /// The halo's radius in pixels.
    public let haloRadius: Int
    /// The primary font's file.
    public let fontFile: String
    /// The family fontconfig chose because it had none by the name asked for, or nil when the
    /// font is the one asked for (or a file).
    public let substitute: String?
    private let library: FontLibrary
    private let primary: FT_Face
    private var fallbackFaces: [UInt32: FT_Face?] = [:]
    private var glyphs: [GlyphKey: Glyph] = [:]
    private var lines: RenderedLineCache
    private let ascender: Int
    private let descender: Int

    private struct GlyphKey: Hashable {
        let face: UnsafeMutableRawPointer
        let index: UInt32
    }

    private struct Glyph {
        let mask: CoverageMask
        let left: Int
        let top: Int
        let advance: Int  // 26.6
    }

    /// The bytes of rendered lines the line cache keeps: some sixty labels at 20 px (a 720p
    /// frame's default), more than a frame shows, and as many at larger sizes (a line's bytes grow
    /// with the square of its size). At a fixed 256 KB a 1080p frame's 20 labels did not fit, and
    /// each frame laid them out by rendering them again: 2.4 ms of its 2.6. (The same bound as the
    /// two generations of 256 KB it replaced held at most.)
    static func lineCacheBudget(pixelSize: Int) -> Int {
        512 * 1024 * max(400, pixelSize * pixelSize) / 400
    }

    /// Opens `font` at `pixelSize`.
    ///
    /// - Throws: ``FontError`` when no font is found or FreeType cannot read it.
    public init(font: String = "DejaVu Sans", pixelSize: Int, haloRadius: Int? = nil) throws(FontError) {
        library = try FontLibrary()
        (fontFile, substitute) = try FontCatalog.shared.file(forName: font)
        primary = try library.face(file: fontFile)
        self.pixelSize = max(4, pixelSize)
        self.haloRadius = haloRadius ?? max(1, self.pixelSize / 8)
        lines = RenderedLineCache(budget: Self.lineCacheBudget(pixelSize: self.pixelSize))
        guard FT_Set_Pixel_Sizes(primary, 0, FT_UInt(self.pixelSize)) == 0 else {
            throw FontError(font: font, problem: "cannot be set to \(pixelSize) px (a bitmap-only font?)")
        }
        let metrics = primary.pointee.size.pointee.metrics
        ascender = Int((metrics.ascender + 63) >> 6)
        descender = Int((-metrics.descender + 63) >> 6)
    }

    /// `text` rendered (from the cache when it was rendered before).
    public func render(_ text: String) -> RenderedText {
        if let cached = lines.line(for: text) { return cached }
        let rendered = layOut(text)
        lines.insert(rendered, for: text)
        return rendered
    }

    private func layOut(_ text: String) -> RenderedText {
        var placed: [(glyph: Glyph, x: Int)] = []
        var pen = 0  // 26.6
        var previous: (face: FT_Face, index: FT_UInt)?
        var missing = 0
        for scalar in text.unicodeScalars {
            var (face, index) = faceAndIndex(for: scalar)
            if index == 0 {
                missing += 1
                face = primary
            }
            if let previous, previous.face == face, face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0 {
                var kerning = FT_Vector()
                if FT_Get_Kerning(face, previous.index, index, arcapture_ft_kerning_default, &kerning) == 0 {
                    pen += Int(kerning.x)
                }
            }
            guard let glyph = glyph(face: face, index: index) else { continue }
            placed.append((glyph, (pen + 32) >> 6))
            pen += glyph.advance
            previous = (face, index)
        }
        let pad = haloRadius + 1
        let width = max(1, ((pen + 63) >> 6) + 2 * pad + 2)
        let height = ascender + descender + 2 * pad
        var values = [UInt8](repeating: 0, count: width * height)
        let baseline = pad + ascender
        for (glyph, x) in placed {
            let left = pad + x + glyph.left
            let top = baseline - glyph.top
            for row in 0..<glyph.mask.height {
                let y = top + row
                guard y >= 0 && y < height else { continue }
                for column in 0..<glyph.mask.width {
                    let xx = left + column
                    guard xx >= 0 && xx < width else { continue }
                    let value = glyph.mask.values[row * glyph.mask.width + column]
                    if value > values[y * width + xx] { values[y * width + xx] = value }
                }
            }
        }
        let mask = CoverageMask(width: width, height: height, values: values)
        return RenderedText(
            mask: mask, halo: Self.dilate(mask, radius: haloRadius), baseline: baseline, missingGlyphs: missing)
    }

    /// The face to draw `scalar` with, and its glyph index (0 when no font has it).
    private func faceAndIndex(for scalar: Unicode.Scalar) -> (FT_Face, FT_UInt) {
        let index = FT_Get_Char_Index(primary, FT_ULong(scalar.value))
        if index != 0 { return (primary, index) }
        if let cached = fallbackFaces[scalar.value] {
            guard let face = cached else { return (primary, 0) }
            return (face, FT_Get_Char_Index(face, FT_ULong(scalar.value)))
        }
        var fallback: FT_Face?
        if let file = FontCatalog.shared.file(covering: scalar), let face = try? library.face(file: file),
            FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize)) == 0, FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
        {
            fallback = face
        }
        fallbackFaces[scalar.value] = .some(fallback)
        guard let fallback else { return (primary, 0) }
        return (fallback, FT_Get_Char_Index(fallback, FT_ULong(scalar.value)))
    }

    private func glyph(face: FT_Face, index: FT_UInt) -> Glyph? {
        let key = GlyphKey(face: UnsafeMutableRawPointer(face), index: UInt32(index))
        if let cached = glyphs[key] { return cached }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
        guard FT_Load_Glyph(face, index, Int32(arcapture_ft_load_render | arcapture_ft_load_target_light)) == 0,
            let slot = face.pointee.glyph
        else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width)
        let rows = Int(bitmap.rows)
        var values = [UInt8](repeating: 0, count: width * rows)
        if let buffer = bitmap.buffer, width > 0, rows > 0 {
            for row in 0..<rows {
                let source = buffer + row * Int(bitmap.pitch)
                for column in 0..<width { values[row * width + column] = source[column] }
            }
        }
        let glyph = Glyph(
            mask: CoverageMask(width: width, height: rows, values: values), left: Int(slot.pointee.bitmap_left),
            top: Int(slot.pointee.bitmap_top), advance: Int(slot.pointee.advance.x))
        glyphs[key] = glyph
        return glyph
    }

    /// The mask grown by `radius` pixels in every direction (a maximum over a disc: the offsets
    /// with dx² + dy² ≤ radius² + radius).
    ///
    /// The disc is taken row by row: each of its rows is a horizontal run of half-width w(dy), so
    /// the rows of the mask are first maximised over runs of every half-width (each level from the
    /// one below, three values per pixel), then each output pixel takes the maximum of 2r + 1 of
    /// them. About 4r + 1 reads per pixel instead of the disc's ~3r² (37 at radius 3); every label
    /// of every text size is dilated once per worker at start-up.
    static func dilate(_ mask: CoverageMask, radius: Int) -> CoverageMask {
        guard radius > 0, mask.width > 0, mask.height > 0 else { return mask }
        let (width, height) = (mask.width, mask.height)
        let limit = radius * radius + radius
        let halfWidths = (0...radius).map { dy in
            var w = 0
            while (w + 1) * (w + 1) + dy * dy <= limit { w += 1 }
            return w
        }
        // levels[k]: each row's maximum over [x - k, x + k], clipped to the row.
        var levels = [mask.values]
        for k in 0..<halfWidths[0] {
            var next = [UInt8](repeating: 0, count: width * height)
            levels[k].withUnsafeBufferPointer { below in
                next.withUnsafeMutableBufferPointer { out in
                    for row in stride(from: 0, to: width * height, by: width) {
                        for x in 0..<width {
                            var best = below[row + x]
                            if x > 0 { best = max(best, below[row + x - 1]) }
                            if x + 1 < width { best = max(best, below[row + x + 1]) }
                            out[row + x] = best
                        }
                    }
                }
            }
            levels.append(next)
        }
        var values = [UInt8](repeating: 0, count: width * height)
        values.withUnsafeMutableBufferPointer { out in
            for dy in -radius...radius where abs(dy) < height {
                levels[halfWidths[abs(dy)]].withUnsafeBufferPointer { level in
                    for y in max(0, -dy)..<min(height, height - dy) {
                        let (target, source) = (y * width, (y + dy) * width)
                        for x in 0..<width { out[target + x] = max(out[target + x], level[source + x]) }
                    }
                }
            }
        }
        return CoverageMask(width: width, height: height, values: values)
    }
}
