import CText
import Foundation

/// Renders single lines of text: shaped by HarfBuzz, ordered by the Unicode bidirectional
/// algorithm (FriBidi), drawn by FreeType in fonts found through fontconfig.
///
/// - Fonts: a fontconfig name (`DejaVu Sans`, the default, or `Noto Sans:bold`) or a font file.
///   A character the font lacks is taken from a fallback font fontconfig finds for it (a Hebrew,
///   Devanagari, Thai or CJK font), so names in any script the installed fonts cover are drawn; an
///   emoji in emoji presentation is taken from a colour font first and drawn in colour
///   (``RenderedText/color``). Characters no font covers are counted in
///   ``RenderedText/missingGlyphs`` and, by script, by ``uncoveredScripts(in:)``.
/// - Layout: the line is cut into runs of one direction, script and font; HarfBuzz shapes each
///   (Arabic letters join, Indic vowel signs move before their consonant, kerning and marks are
///   placed), and the runs are put in visual order (rule L2), so Hebrew and Arabic read right to
///   left, with the numbers and Latin words inside them left to right.
/// - Glyphs are rendered once per font and size and kept; whole lines are kept too (a label's text
///   repeats frame after frame), so steady-state drawing renders and shapes nothing.
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
    private let primary: FontLibrary.SizedFace
    /// Fallback faces by scalar (bit 32: a colour one was asked for); nil when none covers it.
    private var fallbackFaces: [UInt64: FontLibrary.SizedFace?] = [:]
    private var glyphs: [GlyphKey: Glyph] = [:]
    private var lines: RenderedLineCache
    /// Sizes measured by ``size(of:)``.
    private var sizes: [String: (width: Int, height: Int)] = [:]
    /// HarfBuzz's buffer, reused by every run shaped.
    private let shapingBuffer = ShapingBuffer()
    private let ascender: Int
    private let descender: Int

    private struct GlyphKey: Hashable {
        let face: UnsafeMutableRawPointer
        let index: UInt32
    }

    /// A rendered glyph: its coverage (a colour glyph's alpha), its offset from the pen, and its
    /// colour when it has one.
    private struct Glyph {
        let mask: CoverageMask
        let left: Int
        let top: Int
        let color: ColorBitmap?
    }

    /// A line's glyphs placed, before they are drawn into its masks.
    private struct ArrangedLine {
        let drawn: [(glyph: Glyph, x: Int, top: Int)]
        let missing: Int
        let inkLeft: Int
        let width: Int
        let height: Int
        let baseline: Int
    }

    /// A glyph as shaped and placed on the line: its face and index, its pen position (26.6
    /// pixels, x from the line's start, y up from the baseline) and the scalar it came from (its
    /// cluster: the first of the characters it draws).
    struct PlacedGlyph {
        let face: FontLibrary.SizedFace
        let index: UInt32
        let x: Int
        let y: Int
        let cluster: Int
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
        self.pixelSize = max(4, pixelSize)
        self.haloRadius = haloRadius ?? max(1, self.pixelSize / 8)
        lines = RenderedLineCache(budget: Self.lineCacheBudget(pixelSize: self.pixelSize))
        guard let sized = try library.sized(file: fontFile, pixelSize: self.pixelSize) else {
            throw FontError(font: font, problem: "cannot be set to \(pixelSize) px (a bitmap font without sizes?)")
        }
        primary = sized
        let metrics = sized.face.pointee.size.pointee.metrics
        ascender = Int((Double(metrics.ascender) * sized.scale / 64).rounded(.up))
        descender = Int((Double(-metrics.descender) * sized.scale / 64).rounded(.up))
    }

    /// `text` rendered (from the cache when it was rendered before).
    public func render(_ text: String) -> RenderedText {
        if let cached = lines.line(for: text) { return cached }
        let rendered = layOut(text)
        lines.insert(rendered, for: text)
        return rendered
    }

    /// The width and height of the masks ``render(_:)`` gives `text`, without drawing them.
    ///
    /// A layout sizes far more labels than it draws (every place it tries, most of them hidden by
    /// nearer ones or too close to an arrow already placed: hundreds a frame with a city's POIs),
    /// and drawing one costs its masks and its halo's dilation; the glyphs are kept either way. The
    /// sizes are kept in a table emptied when it reaches 4,096 entries (the distance in a moving
    /// camera's labels makes new texts every frame).
    public func size(of text: String) -> (width: Int, height: Int) {
        if let size = sizes[text] { return size }
        let arranged = arrange(text)
        let size = (arranged.width, arranged.height)
        if sizes.count >= Self.sizeTableLimit { sizes.removeAll(keepingCapacity: true) }
        sizes[text] = size
        return size
    }

    /// The texts whose sizes ``size(of:)`` keeps at most (some 100 bytes each).
    static let sizeTableLimit = 4096

    /// The characters of `text` that no installed font draws (each once, in order).
    func uncoveredScalars(in text: String) -> [Unicode.Scalar] {
        let scalars = Array(text.unicodeScalars)
        var seen = Set<UInt32>()
        return shape(scalars.map(\.value)).glyphs.compactMap { glyph in
            guard glyph.index == 0, scalars.indices.contains(glyph.cluster) else { return nil }
            let scalar = scalars[glyph.cluster]
            return seen.insert(scalar.value).inserted ? scalar : nil
        }
    }

    /// The scripts of `labels` that no installed font draws, in the order first met, each with the
    /// first label that needs it and how many do.
    public func uncoveredScripts(in labels: [String]) -> [UncoveredScript] {
        var found: [String: (example: String, labels: Int, package: String, order: Int)] = [:]
        for label in labels {
            var scripts = Set<String>()
            for scalar in uncoveredScalars(in: label) {
                let script = WritingScript.of(scalar.value)
                let emoji = WritingScript.isShared(script) && scalar.properties.isEmoji
                let name = emoji ? "emoji" : WritingScript.name(of: script)
                guard scripts.insert(name).inserted else { continue }
                if let known = found[name] {
                    found[name]?.labels = known.labels + 1
                } else {
                    found[name] = (
                        label, 1, emoji ? "fonts-noto-color-emoji" : WritingScript.package(for: script), found.count
                    )
                }
            }
        }
        return found.sorted { $0.value.order < $1.value.order }.map {
            UncoveredScript(
                script: $0.key, example: $0.value.example, labels: $0.value.labels, package: $0.value.package)
        }
    }

    /// `text` shaped: its glyphs in visual order (left to right) and the line's advance (26.6).
    func shape(_ scalars: [UInt32]) -> (glyphs: [PlacedGlyph], advance: Int) {
        guard !scalars.isEmpty else { return ([], 0) }
        let levels = BidiLevels.resolve(scalars)
        let runs = itemize(scalars, levels: levels)
        let shaped = runs.map { shape($0, in: scalars) }
        var placed: [PlacedGlyph] = []
        placed.reserveCapacity(scalars.count)
        var pen = 0
        for run in BidiLevels.visualOrder(of: runs.map(\.level)) {
            for glyph in shaped[run] {
                placed.append(
                    PlacedGlyph(
                        face: runs[run].face, index: glyph.index, x: pen + glyph.xOffset, y: glyph.yOffset,
                        cluster: glyph.cluster))
                pen += glyph.advance
            }
        }
        return (placed, pen)
    }

    /// One run shaped by HarfBuzz: its glyphs in visual order, offsets and advances in 26.6 pixels
    /// at the size asked for. The whole line is given as context, so letters that join across a
    /// run's edge (an Arabic word in two fonts) take their joining forms.
    private func shape(_ run: TextRun, in scalars: [UInt32]) -> [(
        index: UInt32, cluster: Int, xOffset: Int, yOffset: Int, advance: Int
    )] {
        // One buffer for the renderer's life, cleared for each run: a label's runs, shaped again
        // whenever its distance changes, allocate nothing in HarfBuzz once it has grown.
        guard let buffer = shapingBuffer.pointer else { return [] }
        hb_buffer_clear_contents(buffer)
        scalars.withUnsafeBufferPointer { text in
            hb_buffer_add_utf32(
                buffer, text.baseAddress, Int32(text.count), UInt32(run.range.lowerBound), Int32(run.range.count))
        }
        hb_buffer_set_direction(buffer, run.direction)
        hb_buffer_set_script(buffer, run.script)
        hb_buffer_set_language(buffer, hb_language_get_default())
        hb_shape(run.face.shaper, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
            let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return [] }
        let scale = run.face.scale
        func scaled(_ value: Int32) -> Int { scale == 1 ? Int(value) : Int((Double(value) * scale).rounded()) }
        return (0..<Int(count)).map { i in
            (
                UInt32(infos[i].codepoint), Int(infos[i].cluster), scaled(positions[i].x_offset),
                scaled(positions[i].y_offset), scaled(positions[i].x_advance)
            )
        }
    }

    /// The line cut into runs of one level, script and face.
    private func itemize(_ scalars: [UInt32], levels: [UInt8]) -> [TextRun] {
        let own = scalars.map(WritingScript.of)
        // Spaces, digits, punctuation and marks take the script before them (at the start, the
        // first script after them), so "Tel Aviv-Yafo" is one run, not five.
        var scripts = own
        var last: hb_script_t?
        for i in scripts.indices {
            if WritingScript.isShared(scripts[i]) {
                if let last { scripts[i] = last }
            } else {
                last = scripts[i]
            }
        }
        if let first = own.first(where: { !WritingScript.isShared($0) }) {
            for i in scripts.indices {
                guard WritingScript.isShared(scripts[i]) else { break }
                scripts[i] = first
            }
        }
        var faces: [FontLibrary.SizedFace] = []
        faces.reserveCapacity(scalars.count)
        for (i, scalar) in scalars.enumerated() {
            // A mark never drawn (a direction isolate, a joiner) needs no font of its own.
            if Self.isIgnorable(scalar) {
                faces.append(faces.last ?? primary)
                continue
            }
            let wantsColor = Self.prefersColor(scalar, next: i + 1 < scalars.count ? scalars[i + 1] : nil)
            if let previous = faces.last {
                // A mark, joiner or selector stays in its base's font (a cluster is drawn by one
                // font); so does a shared character the font has, so a Hebrew name's spaces do not
                // cut it into runs.
                if Self.attachesToPrevious(scalar), Self.covers(previous, scalar) {
                    faces.append(previous)
                    continue
                }
                // (Not a colour font's: Noto Color Emoji's space is an emoji wide.)
                if WritingScript.isShared(own[i]), !wantsColor, !previous.isColor, Self.covers(previous, scalar) {
                    faces.append(previous)
                    continue
                }
            }
            faces.append(face(for: scalar, color: wantsColor))
        }
        var runs: [TextRun] = []
        for i in scalars.indices {
            if let run = runs.last, run.level == levels[i], run.script == scripts[i],
                run.face.face == faces[i].face
            {
                runs[runs.count - 1].range = run.range.lowerBound..<(i + 1)
            } else {
                runs.append(TextRun(range: i..<(i + 1), level: levels[i], script: scripts[i], face: faces[i]))
            }
        }
        return runs
    }

    /// The face that draws `scalar`: the primary font when it has it (unless a colour one is
    /// wanted), else a fallback fontconfig finds; the primary (its missing-glyph box) when none has it.
    private func face(for scalar: UInt32, color: Bool) -> FontLibrary.SizedFace {
        if !color, Self.covers(primary, scalar) { return primary }
        return fallback(for: scalar, color: color) ?? primary
    }

    private func fallback(for scalar: UInt32, color: Bool) -> FontLibrary.SizedFace? {
        let key = UInt64(scalar) | (color ? 1 << 32 : 0)
        if let cached = fallbackFaces[key] { return cached }
        var found: FontLibrary.SizedFace?
        if let character = Unicode.Scalar(scalar),
            let file = FontCatalog.shared.file(covering: character, color: color),
            let sized = try? library.sized(file: file, pixelSize: pixelSize),
            Self.covers(sized, scalar)
        {
            found = sized
        }
        fallbackFaces[key] = .some(found)
        return found
    }

    private static func covers(_ face: FontLibrary.SizedFace, _ scalar: UInt32) -> Bool {
        FT_Get_Char_Index(face.face, FT_ULong(scalar)) != 0
    }

    /// Whether `scalar` belongs with the character before it: a combining mark or an emoji's skin
    /// tone (joiners, selectors and tags, never drawn, are placed before this is asked).
    private static func attachesToPrevious(_ scalar: UInt32) -> Bool {
        if (0x1F3FB...0x1F3FF).contains(scalar) { return true }
        guard let character = Unicode.Scalar(scalar) else { return false }
        switch character.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Characters that are never drawn themselves: joiners, variation selectors, direction marks
    /// and isolates, tags.
    private static func isIgnorable(_ scalar: UInt32) -> Bool {
        (0x200B...0x200F).contains(scalar) || (0x202A...0x202E).contains(scalar) || (0x2060...0x206F).contains(scalar)
            || (0xFE00...0xFE0F).contains(scalar) || (0xE0000...0xE0FFF).contains(scalar)
    }

    /// Whether `scalar` is an emoji to draw in colour: emoji presentation by default, or asked for
    /// by the variation selector after it (U+FE0F).
    private static func prefersColor(_ scalar: UInt32, next: UInt32?) -> Bool {
        if next == 0xFE0F { return true }
        guard scalar >= 0x2000, let character = Unicode.Scalar(scalar) else { return false }
        return character.properties.isEmojiPresentation
    }

    /// `text`'s glyphs placed on the line, and the size and baseline of the masks ``render(_:)``
    /// gives it.
    private func arrange(_ text: String) -> ArrangedLine {
        let line = shape(text.unicodeScalars.map(\.value))
        var drawn: [(glyph: Glyph, x: Int, top: Int)] = []
        drawn.reserveCapacity(line.glyphs.count)
        var missing = 0
        var (inkLeft, inkRight) = (0, (line.advance + 63) >> 6)
        var (above, below) = (ascender, descender)
        for placed in line.glyphs {
            if placed.index == 0 { missing += 1 }
            guard let glyph = glyph(placed.face, index: placed.index) else { continue }
            let x = ((placed.x + 32) >> 6) + glyph.left
            let top = glyph.top + ((placed.y + 32) >> 6)
            drawn.append((glyph, x, top))
            guard glyph.mask.width > 0, glyph.mask.height > 0 else { continue }
            inkLeft = min(inkLeft, x)
            inkRight = max(inkRight, x + glyph.mask.width)
            above = max(above, top)
            below = max(below, glyph.mask.height - top)
        }
        let pad = haloRadius + 1
        return ArrangedLine(
            drawn: drawn, missing: missing, inkLeft: inkLeft, width: max(1, inkRight - inkLeft + 2 * pad + 2),
            height: above + below + 2 * pad, baseline: pad + above)
    }

    private func layOut(_ text: String) -> RenderedText {
        let arranged = arrange(text)
        let (drawn, missing, inkLeft) = (arranged.drawn, arranged.missing, arranged.inkLeft)
        let (width, height, baseline) = (arranged.width, arranged.height, arranged.baseline)
        let pad = haloRadius + 1
        var values = [UInt8](repeating: 0, count: width * height)
        var colors: [UInt8]? =
            drawn.contains { $0.glyph.color != nil } ? [UInt8](repeating: 0, count: width * height * 4) : nil
        for (glyph, x, top) in drawn {
            let left = pad - inkLeft + x
            let top = baseline - top
            for row in 0..<glyph.mask.height {
                let y = top + row
                guard y >= 0 && y < height else { continue }
                for column in 0..<glyph.mask.width {
                    let xx = left + column
                    guard xx >= 0 && xx < width else { continue }
                    let value = glyph.mask.values[row * glyph.mask.width + column]
                    let target = y * width + xx
                    if value > values[target] { values[target] = value }
                    guard let color = glyph.color, value > 0 else { continue }
                    // Premultiplied "over": a colour glyph covers what is under it.
                    let source = (row * color.width + column) * 4
                    let keep = 255 - Int(value)
                    for channel in 0..<4 {
                        let under = Int(colors?[target * 4 + channel] ?? 0)
                        colors?[target * 4 + channel] = UInt8(
                            min(255, Int(color.rgba[source + channel]) + (under * keep + 127) / 255))
                    }
                }
            }
        }
        let mask = CoverageMask(width: width, height: height, values: values)
        return RenderedText(
            mask: mask, halo: Self.dilate(mask, radius: haloRadius), baseline: baseline, missingGlyphs: missing,
            color: colors.map { ColorBitmap(width: width, height: height, rgba: $0) })
    }

    /// Glyph `index` of `face` rendered (kept after the first time).
    private func glyph(_ face: FontLibrary.SizedFace, index: UInt32) -> Glyph? {
        let key = GlyphKey(face: UnsafeMutableRawPointer(face.face), index: index)
        if let cached = glyphs[key] { return cached }
        guard FT_Load_Glyph(face.face, index, face.loadFlags | Int32(arcapture_ft_load_render)) == 0,
            let slot = face.face.pointee.glyph
        else { return nil }
        let bitmap = slot.pointee.bitmap
        let (width, rows, pitch) = (Int(bitmap.width), Int(bitmap.rows), Int(bitmap.pitch))
        var glyph: Glyph
        if bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue) {
            // FreeType's colour bitmaps are BGRA, premultiplied: made RGBA, at the size asked for.
            var rgba = [UInt8](repeating: 0, count: width * rows * 4)
            if let buffer = bitmap.buffer {
                for row in 0..<rows {
                    let source = buffer + row * pitch
                    for column in 0..<width {
                        let (s, t) = (column * 4, (row * width + column) * 4)
                        (rgba[t], rgba[t + 1], rgba[t + 2], rgba[t + 3]) = (
                            source[s + 2], source[s + 1], source[s], source[s + 3]
                        )
                    }
                }
            }
            let color = Self.resized(ColorBitmap(width: width, height: rows, rgba: rgba), by: face.scale)
            let alpha = (0..<(color.width * color.height)).map { color.rgba[$0 * 4 + 3] }
            glyph = Glyph(
                mask: CoverageMask(width: color.width, height: color.height, values: alpha),
                left: Int((Double(slot.pointee.bitmap_left) * face.scale).rounded()),
                top: Int((Double(slot.pointee.bitmap_top) * face.scale).rounded()), color: color)
        } else {
            var values = [UInt8](repeating: 0, count: width * rows)
            if let buffer = bitmap.buffer, width > 0, rows > 0 {
                let isMono = bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_MONO.rawValue)
                for row in 0..<rows {
                    let source = buffer + row * pitch
                    for column in 0..<width {
                        values[row * width + column] =
                            isMono ? (source[column >> 3] & (0x80 >> UInt8(column & 7)) != 0 ? 255 : 0) : source[column]
                    }
                }
            }
            glyph = Glyph(
                mask: CoverageMask(width: width, height: rows, values: values), left: Int(slot.pointee.bitmap_left),
                top: Int(slot.pointee.bitmap_top), color: nil)
        }
        glyphs[key] = glyph
        return glyph
    }

    /// `bitmap` scaled by `factor`, each new pixel the mean of the pixels it covers (a colour
    /// emoji's 136×128 bitmap brought to a 20-pixel label).
    static func resized(_ bitmap: ColorBitmap, by factor: Double) -> ColorBitmap {
        guard factor != 1, bitmap.width > 0, bitmap.height > 0 else { return bitmap }
        let width = max(1, Int((Double(bitmap.width) * factor).rounded()))
        let height = max(1, Int((Double(bitmap.height) * factor).rounded()))
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        func span(_ index: Int, _ size: Int, _ source: Int) -> Range<Int> {
            let start = min(source - 1, index * source / size)
            return start..<max(start + 1, min(source, (index + 1) * source / size))
        }
        for y in 0..<height {
            let rows = span(y, height, bitmap.height)
            for x in 0..<width {
                let columns = span(x, width, bitmap.width)
                var sums = (0, 0, 0, 0)
                for row in rows {
                    for column in columns {
                        let s = (row * bitmap.width + column) * 4
                        sums.0 += Int(bitmap.rgba[s])
                        sums.1 += Int(bitmap.rgba[s + 1])
                        sums.2 += Int(bitmap.rgba[s + 2])
                        sums.3 += Int(bitmap.rgba[s + 3])
                    }
                }
                let n = rows.count * columns.count
                let t = (y * width + x) * 4
                (rgba[t], rgba[t + 1], rgba[t + 2], rgba[t + 3]) = (
                    UInt8((sums.0 + n / 2) / n), UInt8((sums.1 + n / 2) / n), UInt8((sums.2 + n / 2) / n),
                    UInt8((sums.3 + n / 2) / n)
                )
            }
        }
        return ColorBitmap(width: width, height: height, rgba: rgba)
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
