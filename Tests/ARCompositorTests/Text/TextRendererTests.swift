import Foundation
import Testing

@testable import ARCompositor

/// Text through FreeType and fontconfig, with Debian's DejaVu fonts (fonts-dejavu-core).
@Suite("Text")
struct TextRendererTests {
    private func inked(_ mask: CoverageMask) -> Int { mask.values.filter { $0 > 128 }.count }

    @Test("a line renders to a mask with its baseline, and a halo around every glyph")
    func renders() throws {
        let renderer = try TextRenderer(pixelSize: 24)
        #expect(renderer.fontFile.hasSuffix("DejaVuSans.ttf"))
        let text = renderer.render("Helsingin tuomiokirkko · 176 m")
        #expect(text.missingGlyphs == 0)
        #expect(text.mask.width > 300 && text.mask.height >= 24)
        #expect(text.baseline > 0 && text.baseline < text.mask.height)
        #expect(inked(text.mask) > 500)
        // The halo contains the glyphs and reaches further.
        #expect(zip(text.halo.values, text.mask.values).allSatisfy { $0 >= $1 })
        #expect(inked(text.halo) > inked(text.mask) * 3 / 2)
        // Descenders (g, k) reach below the baseline; nothing is drawn far above the ascender.
        let belowBaseline = (text.baseline + 2..<text.mask.height).contains { row in
            (0..<text.mask.width).contains { text.mask.values[row * text.mask.width + $0] > 128 }
        }
        #expect(belowBaseline)
    }

    @Test("accents, Cyrillic and Greek draw with no missing glyph; a character no font has is counted")
    func scripts() throws {
        let renderer = try TextRenderer(pixelSize: 20)
        for name in ["Café Ekberg", "Москва", "Αθήνα", "Žbevnica", "Kauppatori – Salutorget"] {
            let text = renderer.render(name)
            #expect(text.missingGlyphs == 0, "\(name)")
            #expect(inked(text.mask) > 40, "\(name)")
        }
        // U+10FFFD is a private-use character no installed font draws.
        #expect(renderer.render("A\u{10FFFD}").missingGlyphs == 1)
        #expect(renderer.render("Café").mask.width > renderer.render("Caf").mask.width)
    }

    @Test("a missing font file is an error naming it")
    func missingFont() {
        #expect(throws: FontError(font: "/nonexistent/font.ttf", problem: "no such font file", isMissing: true)) {
            try TextRenderer(font: "/nonexistent/font.ttf", pixelSize: 20)
        }
    }

    @Test(
        "rendered lines are kept: the same text returns the same masks; a text measured without drawing has their size"
    )
    func cached() throws {
        let renderer = try TextRenderer(pixelSize: 18)
        #expect(renderer.render("Senaatintori").mask == renderer.render("Senaatintori").mask)
        // Measured (size(of:), what a layout asks of every label it tries) by a renderer that has
        // drawn nothing, so its glyphs are not yet kept, and again after drawing: both equal the
        // rendering's masks, in every script and for an emoji, an empty text and a missing glyph.
        let texts = [
            "Helsingin tuomiokirkko · 176 m", "תל אביב 12 km", "القاهرة", "नई दिल्ली", "Tokyo 🗼", "", "A\u{10FFFD}",
        ]
        let measuring = try TextRenderer(pixelSize: 22)
        let drawing = try TextRenderer(pixelSize: 22)
        for text in texts {
            let size = measuring.size(of: text)
            let rendered = drawing.render(text)
            #expect(size == (rendered.mask.width, rendered.mask.height), "\(text)")
            #expect(drawing.size(of: text) == size, "\(text)")
        }
        // Sizes are the renderer's own: larger text measures larger.
        #expect(try TextRenderer(pixelSize: 40).size(of: texts[0]).width > measuring.size(of: texts[0]).width)
    }
}

/// The halo's dilation against the disc's definition, pixel by pixel.
@Suite("Halo dilation")
struct HaloDilationTests {
    /// The maximum over every offset of the disc, as the definition reads.
    private func dilatedByDefinition(_ mask: CoverageMask, radius: Int) -> [UInt8] {
        var values = [UInt8](repeating: 0, count: mask.values.count)
        for y in 0..<mask.height {
            for x in 0..<mask.width {
                for dy in -radius...radius {
                    for dx in -radius...radius where dx * dx + dy * dy <= radius * radius + radius {
                        let (sx, sy) = (x + dx, y + dy)
                        guard sx >= 0, sx < mask.width, sy >= 0, sy < mask.height else { continue }
                        values[y * mask.width + x] = max(values[y * mask.width + x], mask.values[sy * mask.width + sx])
                    }
                }
            }
        }
        return values
    }

    @Test(
        "equals the maximum over the disc, at the borders and on masks smaller than the disc",
        arguments: [(1, 1), (1, 9), (9, 1), (2, 3), (17, 11), (40, 23)], 1...5)
    func matchesDefinition(size: (width: Int, height: Int), radius: Int) {
        var generator = SystemRandomNumberGenerator()
        for density in [0.02, 0.3] {
            let values = (0..<size.width * size.height).map { _ in
                Double.random(in: 0..<1, using: &generator) < density ? UInt8.random(in: 1...255, using: &generator) : 0
            }
            let mask = CoverageMask(width: size.width, height: size.height, values: values)
            #expect(TextRenderer.dilate(mask, radius: radius).values == dilatedByDefinition(mask, radius: radius))
        }
    }

    @Test("a single inked pixel grows into the disc of the radius")
    func singlePixel() {
        var values = [UInt8](repeating: 0, count: 81)
        values[40] = 200
        let grown = TextRenderer.dilate(CoverageMask(width: 9, height: 9, values: values), radius: 2)
        // radius 2: dx² + dy² ≤ 6, so 21 pixels (5×5 without its corners).
        #expect(grown.values.filter { $0 == 200 }.count == 21)
        #expect(grown.values[2 * 9 + 2] == 0 && grown.values[2 * 9 + 3] == 200 && grown.values[2 * 9 + 4] == 200)
    }
}
