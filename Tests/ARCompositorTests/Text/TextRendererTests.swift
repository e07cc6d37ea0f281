import CaptureKit
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
        #expect(throws: FontError(font: "/nonexistent/font.ttf", problem: "no such font file")) {
            try TextRenderer(font: "/nonexistent/font.ttf", pixelSize: 20)
        }
    }

    @Test("rendered lines are kept: the same text returns the same masks")
    func cached() throws {
        let renderer = try TextRenderer(pixelSize: 18)
        #expect(renderer.render("Senaatintori").mask == renderer.render("Senaatintori").mask)
    }
}
