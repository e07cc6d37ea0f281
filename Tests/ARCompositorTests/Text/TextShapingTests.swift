import Foundation
import TestSupport
import Testing

@testable import ARCompositor

/// Text as people write it, against HarfBuzz's and FriBidi's own tools: the glyphs hb-shape picks
/// for a name (Arabic joined, Indic vowel signs reordered, Thai and Hangul from the font that has
/// them), the order the fribidi command puts a mixed Hebrew and Latin line in, and the picture
/// hb-view draws. With Debian's DejaVu and Noto fonts (fonts-dejavu-core, fonts-noto-core,
/// fonts-noto-cjk, fonts-noto-color-emoji).
@Suite("Text shaping (HarfBuzz, FriBidi)")
struct TextShapingTests {
    /// One glyph of hb-shape's JSON output: glyph id, cluster, advance (font units).
    struct ReferenceGlyph: Decodable {
        let g: UInt32
        let cl: Int
        let ax: Int
    }

    static func hbShape(font: String, _ text: String) async throws -> [ReferenceGlyph] {
        let json = try await ProcessRunner.output(
            tool: "hb-shape", ["--no-glyph-names", "--output-format=json", font, text], package: "libharfbuzz-bin")
        return try JSONDecoder().decode([ReferenceGlyph].self, from: Data(json.utf8))
    }

    /// The font's units per em, as hb-shape's positions are in them (its default size is the em).
    static func unitsPerEm(_ face: FontLibrary.SizedFace) -> Double { Double(face.face.pointee.units_per_EM) }

    @Test(
        "each script is shaped as hb-shape shapes it: the same glyphs, clusters and advances, in the font that has it",
        arguments: [
            ("Hebrew", "תל אביב"), ("Arabic", "القاهرة"), ("Devanagari", "नई दिल्ली"), ("Bengali", "ঢাকা"),
            ("Thai", "กรุงเทพมหานคร"), ("Hangul", "서울특별시"), ("Latin", "Kauppatori AVA"),
        ])
    func matchesHBShape(script: String, text: String) async throws {
        let renderer = try TextRenderer(pixelSize: 40)
        let line = renderer.shape(text.unicodeScalars.map(\.value))
        let files = Set(line.glyphs.map(\.face.file))
        #expect(files.count == 1, "\(script): one font for one script, not \(files)")
        let face = try #require(line.glyphs.first?.face)
        #expect(line.glyphs.allSatisfy { $0.index != 0 }, "\(script): a missing glyph in \(face.file)")
        let reference = try await Self.hbShape(font: face.file, text)
        #expect(line.glyphs.map(\.index) == reference.map(\.g), "\(script) in \(face.file)")
        #expect(line.glyphs.map(\.cluster) == reference.map(\.cl), "\(script)")
        // Hinting rounds each advance to a whole pixel: at most half a pixel each from the outline's.
        let expected = Double(reference.map(\.ax).reduce(0, +)) * 40 / Self.unitsPerEm(face)
        #expect(abs(Double(line.advance) / 64 - expected) <= Double(reference.count) / 2 + 1, "\(script)")
    }

    @Test("a Devanagari vowel sign drawn before its consonant (ि of कि), as written, not after it")
    func indicReordering() async throws {
        let renderer = try TextRenderer(pixelSize: 40)
        let line = renderer.shape("कि".unicodeScalars.map(\.value))
        let file = try #require(line.glyphs.first?.face.file)
        let consonant = try await #require(Self.hbShape(font: file, "क").first?.g)
        #expect(line.glyphs.count == 2)
        #expect(line.glyphs.last?.index == consonant, "the consonant is the second glyph, left of it the sign")
        #expect((line.glyphs.first?.x ?? 1) < (line.glyphs.last?.x ?? 0))
    }

    /// The characters of a shaped line in the order drawn, left to right (one per cluster).
    static func visualText(_ text: String, _ renderer: TextRenderer) -> String {
        let scalars = Array(text.unicodeScalars)
        var clusters: [Int] = []
        for glyph in renderer.shape(scalars.map(\.value)).glyphs where clusters.last != glyph.cluster {
            clusters.append(glyph.cluster)
        }
        return String(String.UnicodeScalarView(clusters.map { scalars[$0] }))
    }

    @Test(
        "a line mixing Hebrew, Latin and numbers is in the order the fribidi command gives",
        arguments: [
            "Tel Aviv תל אביב 2024 מרכז", "תל אביב-יפו 2024", "נמל חיפה, Haifa Port 3", "Eilat · אילת · 45 km",
        ])
    func bidiOrder(text: String) async throws {
        let renderer = try TextRenderer(pixelSize: 20)
        let reference = try await ProcessRunner.run(
            tool: "fribidi", ["--nopad", "--nobreak"], install: "apt-get install libfribidi-bin",
            input: Self.file(containing: text + "\n"))
        #expect(reference.status == 0, "\(reference.stderr)")
        let expected = reference.stdout.trimmingCharacters(in: .newlines)
        #expect(Self.visualText(text, renderer) == expected)
        #expect(expected != text, "a test of order must change it")
    }

    @Test("a right-to-left name keeps its label's order: the name (right to left in itself), then the distance")
    func labelOrder() throws {
        let renderer = try TextRenderer(pixelSize: 20)
        let label = LabelTextCache.compose(name: "תל אביב-יפו 2024", distance: "7.0 km")
        let drawn = Self.visualText(label, renderer).unicodeScalars.filter { $0 != "\u{2068}" && $0 != "\u{2069}" }
        #expect(String(String.UnicodeScalarView(drawn)) == "2024 ופי-ביבא לת · 7.0 km")
        // Without the isolate the name's direction turned the whole label round.
        #expect(Self.visualText("תל אביב-יפו 2024 · 7.0 km", renderer).hasPrefix("km"))
    }

    static func file(containing text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// `image`'s ink (coverage over 128) cropped to its box, as rows of booleans.
    static func ink(width: Int, height: Int, _ values: [UInt8]) -> [[Bool]] {
        let rows = (0..<height).filter { row in (0..<width).contains { values[row * width + $0] > 128 } }
        let columns = (0..<width).filter { column in (0..<height).contains { values[$0 * width + column] > 128 } }
        guard let top = rows.first, let bottom = rows.last, let left = columns.first, let right = columns.last else {
            return []
        }
        return (top...bottom).map { row in (left...right).map { values[row * width + $0] > 128 } }
    }

    /// Intersection over union of two ink boxes laid over each other at their top-left corners.
    static func overlap(_ a: [[Bool]], _ b: [[Bool]]) -> Double {
        let height = max(a.count, b.count)
        let width = max(a.first?.count ?? 0, b.first?.count ?? 0)
        var (both, either) = (0, 0)
        for row in 0..<height {
            for column in 0..<width {
                let inA = row < a.count && column < a[row].count && a[row][column]
                let inB = row < b.count && column < b[row].count && b[row][column]
                if inA && inB { both += 1 }
                if inA || inB { either += 1 }
            }
        }
        return either == 0 ? 0 : Double(both) / Double(either)
    }

    /// hb-view's picture of `text` in `font` at `size` pixels: its ink.
    static func hbView(font: String, size: Int, _ text: String) async throws -> [[Bool]] {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("hb-view-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: png) }
        _ = try await ProcessRunner.output(
            tool: "hb-view",
            ["--font-size=\(size)", "--margin=0", "--output-format=png", "-o", png.path, font, text],
            package: "libharfbuzz-bin")
        let size = try await ProcessRunner.output(
            tool: "ffprobe", ["-v", "error", "-show_entries", "stream=width,height", "-of", "csv=p=0", png.path],
            package: "ffmpeg"
        ).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
        let raw = png.deletingPathExtension().appendingPathExtension("gray")
        defer { try? FileManager.default.removeItem(at: raw) }
        _ = try await ProcessRunner.output(
            tool: "ffmpeg", ["-v", "error", "-i", png.path, "-f", "rawvideo", "-pix_fmt", "gray", "-y", raw.path],
            package: "ffmpeg")
        let grey = try [UInt8](Data(contentsOf: raw))
        guard size.count == 2, grey.count == size[0] * size[1] else { return [] }
        // Black on white: ink is what is dark.
        return ink(width: size[0], height: size[1], grey.map { 255 - $0 })
    }

    @Test(
        "Hebrew, Arabic and Devanagari names look as hb-view draws them, and not as letters left to right",
        arguments: ["שלום", "القاهرة", "नमस्ते दिल्ली"])
    func looksLikeHBView(text: String) async throws {
        let size = 48
        let renderer = try TextRenderer(pixelSize: size)
        let file = try #require(renderer.shape(text.unicodeScalars.map(\.value)).glyphs.first?.face.file)
        let reference = try await Self.hbView(font: file, size: size, text)
        let ours = renderer.render(text).mask
        let drawn = Self.ink(width: ours.width, height: ours.height, ours.values)
        // Hinting and anti-aliasing differ (FreeType's light hinting here, cairo's there): the ink
        // boxes within a few pixels, most of the ink shared.
        #expect(
            abs(drawn.count - reference.count) <= 3
                && abs((drawn.first?.count ?? 0) - (reference.first?.count ?? 0)) <= 4)
        let shared = Self.overlap(drawn, reference)
        #expect(shared > 0.7, "\(text): \(shared) of the ink shared with hb-view's")
        // Each letter alone, left to right in the order typed: what was drawn before HarfBuzz.
        let naive = text.unicodeScalars.map { renderer.render(String($0)).mask }
        let naiveInk = Self.ink(
            width: naive.map(\.width).reduce(0, +), height: naive.map(\.height).max() ?? 0,
            Self.concatenated(naive))
        #expect(Self.overlap(naiveInk, reference) < shared - 0.15, "\(text): the test tells the two apart")
    }

    /// Masks side by side, top-aligned, as one mask's values.
    static func concatenated(_ masks: [CoverageMask]) -> [UInt8] {
        let width = masks.map(\.width).reduce(0, +)
        let height = masks.map(\.height).max() ?? 0
        var values = [UInt8](repeating: 0, count: width * height)
        var left = 0
        for mask in masks {
            for row in 0..<mask.height {
                for column in 0..<mask.width {
                    values[row * width + left + column] = mask.values[row * mask.width + column]
                }
            }
            left += mask.width
        }
        return values
    }

    @Test(
        "an emoji is drawn in colour from the colour font (by default, or asked for by U+FE0F); a name without one has no colour layer",
        arguments: ["🌋 Etna", "🏔\u{FE0F} Triglav"])
    func colourEmoji(text name: String) throws {
        let renderer = try TextRenderer(pixelSize: 32)
        let text = renderer.render(name)
        let color = try #require(text.color, "\(name): no colour layer")
        #expect(text.missingGlyphs == 0)
        #expect(color.width == text.mask.width && color.height == text.mask.height)
        // Some opaque pixel is far from grey (the mountain's blue or green, the lava's red).
        let colourful = (0..<(color.width * color.height)).contains { i in
            let (r, g, b, a) = (color.rgba[i * 4], color.rgba[i * 4 + 1], color.rgba[i * 4 + 2], color.rgba[i * 4 + 3])
            return a == 255 && Int(max(r, g, b)) - Int(min(r, g, b)) > 80
        }
        #expect(colourful)
        #expect(renderer.render("Triglav").color == nil)
        let face = try #require(renderer.shape(name.unicodeScalars.map(\.value)).glyphs.first?.face)
        #expect(face.isColor && face.file.hasSuffix("NotoColorEmoji.ttf"))
        // Scaled from its 109-pixel bitmap to about the text's size, not drawn at 109 pixels.
        #expect(text.mask.height < 32 * 2)
    }

    @Test("the characters no font draws are found, by script, with a label and the package to install")
    func uncovered() throws {
        let renderer = try TextRenderer(pixelSize: 20)
        #expect(renderer.uncoveredScalars(in: "A\u{10FFFD}B") == ["\u{10FFFD}"])
        #expect(renderer.uncoveredScalars(in: "תל אביב कि 서울 🏔").isEmpty)
        let found = renderer.uncoveredScripts(in: ["Triglav", "X\u{10FFFD}", "Y\u{10FFFD}"])
        #expect(found.count == 1)
        #expect(found.first?.example == "X\u{10FFFD}" && found.first?.labels == 2)
        #expect(found.first?.warning.contains("and 1 other label will show empty boxes") == true)
    }
}
