import ARCompositor
import ArcaptureCore
import Footage
import Testing

@testable import GeoAR

/// An overlay's alpha and colours taken apart from its two drawings (on black and on white), checked
/// against the colours and opacities drawn, which the test knows.
@Suite("Overlay matte: the drawing alone, with alpha")
struct OverlayMatteTests {
    /// Draws a half-transparent red square over an opaque white one on both canvases, in
    /// `subsampling`, and takes them apart into `layout`.
    private func drawn(_ subsampling: ChromaSubsampling, _ layout: VideoPicture.Layout) -> VideoPicture {
        let painter = Painter()
        var black = OverlayMatte.canvas(width: 64, height: 32, subsampling: subsampling, luma: 0, reusing: nil)
        var white = OverlayMatte.canvas(width: 64, height: 32, subsampling: subsampling, luma: 255, reusing: nil)
        for index in 0..<2 {
            var canvas = index == 0 ? black : white
            // White, opaque: x 0-15; red at alpha 128 (#e6394680): x 8-31 (over the white at 8-15).
            painter.fill(rectangle(0, 16), color: .white, on: &canvas)
            painter.fill(rectangle(8, 32), color: RGBAColor(hex: "#e6394680") ?? .black, on: &canvas)
            if index == 0 { black = canvas } else { white = canvas }
        }
        return OverlayMatte.picture(black: black, white: white, layout: layout)
    }

    /// Columns `left` to `right`, rows 0-15.
    private func rectangle(_ left: Double, _ right: Double) -> Shape {
        .polygon([SIMD2(left, 0), SIMD2(right, 0), SIMD2(right, 16), SIMD2(left, 16)])
    }

    private func rgba(_ picture: VideoPicture, x: Int, y: Int) -> [Int] {
        let base = (y * picture.width + x) * 4
        return picture.planes[0][base..<(base + 4)].map(Int.init)
    }

    private func near(_ found: [Int], _ expected: [Int], within tolerance: Int) -> Bool {
        zip(found, expected).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test(
        "RGBA: straight colour and alpha where drawn, transparent elsewhere",
        arguments: [
            ChromaSubsampling.s444, .s420,
        ])
    func rgbaLayout(subsampling: ChromaSubsampling) {
        let picture = drawn(subsampling, .rgba)
        // Opaque white alone.
        #expect(near(rgba(picture, x: 2, y: 4), [255, 255, 255, 255], within: 1), "\(rgba(picture, x: 2, y: 4))")
        // Red at half opacity alone: its own colour, alpha 128.
        #expect(near(rgba(picture, x: 24, y: 4), [230, 57, 70, 128], within: 3), "\(rgba(picture, x: 24, y: 4))")
        // Red over white: opaque, the mix of the two (white × 127/255 + red × 128/255).
        let mix = [242, 155, 162, 255]
        #expect(near(rgba(picture, x: 12, y: 4), mix, within: 3), "\(rgba(picture, x: 12, y: 4))")
        // Nothing drawn: all zero.
        #expect(rgba(picture, x: 48, y: 24) == [0, 0, 0, 0])
    }

    @Test("QuickTime Animation's ARGB is RGBA's bytes in its order")
    func argbLayout() {
        let argb = drawn(.s444, .argb)
        let rgba = drawn(.s444, .rgba)
        #expect(argb.planes[0].count == rgba.planes[0].count)
        for pixel in stride(from: 0, to: rgba.planes[0].count, by: 4) {
            let ours = Array(argb.planes[0][pixel..<(pixel + 4)])
            let theirs = Array(rgba.planes[0][pixel..<(pixel + 4)])
            guard ours == [theirs[3], theirs[0], theirs[1], theirs[2]] else {
                Issue.record("pixel \(pixel / 4): \(ours) against \(theirs)")
                return
            }
        }
    }

    @Test("ProRes 4444's 10-bit limited range: white at Y 940, half-red's alpha at 514 of 1023")
    func proResLayout() {
        let picture = drawn(.s444, .yuva444p10)
        func sample(_ plane: Int, _ x: Int, _ y: Int) -> Int {
            let index = (y * picture.width + x) * 2
            return Int(picture.planes[plane][index]) | Int(picture.planes[plane][index + 1]) << 8
        }
        #expect(abs(sample(0, 2, 4) - 940) <= 2 && abs(sample(1, 2, 4) - 512) <= 2 && sample(3, 2, 4) == 1023)
        #expect(abs(sample(3, 24, 4) - 514) <= 2, "\(sample(3, 24, 4))")
        // Red's own luma (BT.601: 0.299 × 230 + 0.587 × 57 + 0.114 × 70 = 110.2) in 10-bit limited range.
        #expect(abs(sample(0, 24, 4) - Int((64 + 110.2 * 876 / 255).rounded())) <= 6, "\(sample(0, 24, 4))")
        #expect(sample(3, 48, 24) == 0)
    }

    @Test("VP9's 4:2:0: straight chroma (not premultiplied towards the black behind), neutral where nothing is drawn")
    func vp9Layout() {
        let picture = drawn(.s444, .yuva420p)
        // The chroma sample of pixels (30-31, 0-1): red at half opacity. Red's Cr (BT.601, full
        // range 128 + 0.5 × 230 − 0.418688 × 57 − 0.081312 × 70 = 213.4) in limited range.
        let cr = Int(picture.planes[2][0 * 32 + 15])
        #expect(abs(cr - Int((128 + (213.4 - 128) * 224 / 255).rounded())) <= 3, "\(cr)")
        // Nothing drawn: alpha 0, neutral chroma.
        #expect(picture.planes[3][0 * 64 + 40] == 0 && picture.planes[1][0 * 32 + 20] == 128)
    }
}
