import Foundation
import Testing

@testable import ARCompositor
@testable import ArcaptureCore

/// The rasteriser's geometry and the painter's YCbCr blending, against closed-form areas and RGB
/// arithmetic.
@Suite("Rasteriser and painter")
struct RasterTests {
    /// The total coverage of `shape` on a `width`×`height` frame: its area in pixels.
    private func area(_ shape: Shape, width: Int = 400, height: Int = 400) -> Double {
        let rasterizer = CoverageRasterizer()
        guard rasterizer.rasterize(shape, clipWidth: width, clipHeight: height) else { return 0 }
        return rasterizer.coverage().reduce(0) { $0 + Double($1) }
    }

    @Test("a circle covers πr² within 1 %, at any radius and sub-pixel position", arguments: [3.0, 5.5, 20, 120])
    func circleArea(radius: Double) {
        let covered = area(.circle(center: SIMD2(200.3, 199.7), radius: radius))
        #expect(abs(covered / (Double.pi * radius * radius) - 1) < 0.01, "\(covered)")
    }

    @Test("edges are anti-aliased and the inside is fully covered")
    func antiAliased() {
        let rasterizer = CoverageRasterizer()
        rasterizer.rasterize(.circle(center: SIMD2(50, 50), radius: 20), clipWidth: 100, clipHeight: 100)
        let values = rasterizer.coverage()
        #expect(values.contains { $0 > 0.05 && $0 < 0.95 })
        let centre = (50 - rasterizer.box.y) * rasterizer.box.width + (50 - rasterizer.box.x)
        #expect(values[centre] == 1)
        #expect(values.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    @Test("shapes are clipped at the frame's edges: a circle on the corner covers a quarter")
    func clipping() {
        let quarter = area(.circle(center: SIMD2(0, 0), radius: 30), width: 100, height: 100)
        #expect(abs(quarter / (Double.pi * 900 / 4) - 1) < 0.01)
        // On the right and bottom edges of an odd-sized frame too.
        let other = area(.circle(center: SIMD2(641, 479), radius: 30), width: 641, height: 479)
        #expect(abs(other / (Double.pi * 900 / 4) - 1) < 0.01)
        #expect(area(.circle(center: SIMD2(-50, -50), radius: 30), width: 100, height: 100) == 0)
    }

    @Test("a ring has its hole; a line has round caps; a rounded rectangle loses (4 − π)r²")
    func otherShapes() {
        let ring = area(.ring(center: SIMD2(100, 100), radius: 20, width: 4))
        #expect(abs(ring / (Double.pi * (22 * 22 - 18 * 18)) - 1) < 0.01)
        let line = area(.line(from: SIMD2(50, 60), to: SIMD2(250, 160), width: 6))
        let length = (200.0 * 200 + 100 * 100).squareRoot()
        #expect(abs(line / (length * 6 + Double.pi * 9) - 1) < 0.01)
        let box = area(.roundedRectangle(x: 10.5, y: 20.25, width: 120, height: 40, radius: 8))
        #expect(abs(box / (120 * 40 - (4 - Double.pi) * 64) - 1) < 0.005)
        let arrow = area(.polygon([SIMD2(100, 100), SIMD2(140, 120), SIMD2(100, 140)]))
        #expect(abs(arrow - 800) < 0.01)
    }

    /// Full-range BT.601, rounded, for backgrounds.
    private func ycbcr(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        (
            0.299 * r + 0.587 * g + 0.114 * b, 128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
            128 + 0.5 * r - 0.418688 * g - 0.081312 * b
        )
    }

    @Test(
        "a tall shape filled in bands of rows is the shape filled whole, sample for sample",
        arguments: [
            ChromaSubsampling.s420, .s422, .s444, .gray,
        ])
    func bands(subsampling: ChromaSubsampling) {
        // A slanted, translucent quadrilateral 600 rows tall, crossing band edges at every angle.
        let shape = Shape.polygon([SIMD2(10.3, 3.7), SIMD2(180.9, 40.2), SIMD2(150.1, 603.6), SIMD2(2.5, 420.8)])
        let color = RGBAColor(red: 200, green: 40, blue: 90, alpha: 170)
        var images: [YCbCrImage] = []
        for bandHeight in [128, 2, 10_000] {
            let painter = Painter()
            painter.bandHeight = bandHeight
            var image = YCbCrImage(width: 200, height: 640, subsampling: subsampling)
            painter.fill(shape, color: color, on: &image)
            images.append(image)
        }
        #expect(images[0] == images[2])
        #expect(images[1] == images[2])
        #expect(images[2].planes[0].bytes.contains { $0 != 128 })  // something was drawn
    }

    @Test(
        "a sprite drawn faded is the sprite drawn lighter; at 0 it is not drawn",
        arguments: [
            (1.0, 255), (0.5, 128), (0.25, 64), (0.0, 0),
        ])
    func fadedSprite(opacity: Double, luma: Int) {
        let white = CoverageMask(width: 32, height: 8, values: [UInt8](repeating: 255, count: 256))
        let sprite = Sprite(
            width: 32, height: 8, h: 2, v: 1, layers: [Sprite.Layer(mask: white, x: 0, y: 0, color: .white)])
        var image = YCbCrImage(width: 64, height: 16, subsampling: .s422)
        for index in image.planes[0].bytes.indices { image.planes[0].bytes[index] = 0 }
        Painter().draw(sprite, x: 16, y: 4, on: &image, opacity: opacity)
        let drawn = Int(image.planes[0][20, 6])
        #expect(abs(drawn - luma) <= 1, "luma \(drawn)")
        #expect(image.planes[0][2, 2] == 0)  // outside the sprite
        #expect(image.planes[1][10, 6] == 128)  // white has neutral chroma, faded or not
    }

    @Test("a painter for limited-range frames paints white as 235/128/128 and black as 16/128/128")
    func limitedRange() {
        let painter = Painter()
        painter.sampleRange = .limited
        for (color, luma) in [(RGBAColor.white, UInt8(235)), (RGBAColor.black, UInt8(16))] {
            var image = YCbCrImage(width: 8, height: 8, subsampling: .s422)
            painter.fill(.polygon([SIMD2(0, 0), SIMD2(8, 0), SIMD2(8, 8), SIMD2(0, 8)]), color: color, on: &image)
            #expect(image.planes[0].bytes.allSatisfy { $0 == luma })
            #expect(image.planes[1].bytes.allSatisfy { $0 == 128 } && image.planes[2].bytes.allSatisfy { $0 == 128 })
        }
        // Pure red's Cr is 255.5 full range, 240 limited (BT.601's headroom).
        let red = RGBAColor(red: 255, green: 0, blue: 0).ycbcr(in: .limited)
        #expect(abs(red.cr - 240) < 0.5 && abs(red.y - (16 + 0.299 * 219)) < 0.01)
    }

    @Test("blending in YCbCr equals blending in RGB within 2 levels")
    func blendingMatchesRGB() {
        var generator = SystemRandomNumberGenerator()
        let painter = Painter()
        for _ in 0..<200 {
            let background = (
                Double.random(in: 0...255, using: &generator), Double.random(in: 0...255, using: &generator),
                Double.random(in: 0...255, using: &generator)
            )
            let color = RGBAColor(
                red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                blue: .random(in: 0...255, using: &generator), alpha: .random(in: 1...255, using: &generator))
            var image = YCbCrImage(width: 8, height: 8, subsampling: .s420)
            let start = ycbcr(background.0, background.1, background.2)
            for (index, value) in [start.0, start.1, start.2].enumerated() {
                for i in image.planes[index].bytes.indices { image.planes[index].bytes[i] = UInt8(value.rounded()) }
            }
            painter.fill(.polygon([SIMD2(0, 0), SIMD2(8, 0), SIMD2(8, 8), SIMD2(0, 8)]), color: color, on: &image)
            // The reference: blend in RGB, then convert.
            let a = Double(color.alpha) / 255
            let blended = ycbcr(
                background.0 + (Double(color.red) - background.0) * a,
                background.1 + (Double(color.green) - background.1) * a,
                background.2 + (Double(color.blue) - background.2) * a)
            #expect(abs(Double(image.planes[0][3, 3]) - blended.0) <= 2)
            #expect(abs(Double(image.planes[1][1, 1]) - blended.1) <= 2)
            #expect(abs(Double(image.planes[2][1, 1]) - blended.2) <= 2)
        }
    }

    @Test("chroma is blended at its own resolution: a one-pixel column half-covers a 4:2:2 sample")
    func chromaResolution() {
        var image = YCbCrImage(width: 20, height: 4, subsampling: .s422)
        let painter = Painter()
        // Pure blue (Cb 255.5 → 255) over mid-grey, covering luma column 10 only.
        painter.fill(
            .polygon([SIMD2(10, 0), SIMD2(11, 0), SIMD2(11, 4), SIMD2(10, 4)]),
            color: RGBAColor(red: 0, green: 0, blue: 255), on: &image)
        #expect(image.planes[0][10, 1] == 29)  // Y of blue: 0.114 × 255 = 29.07
        #expect(image.planes[0][11, 1] == 128)
        // Cb: 128 + (255.5 − 128) × 0.5 = 191.75.
        #expect(image.planes[1][5, 1] == 192)
        #expect(image.planes[1][4, 1] == 128 && image.planes[1][6, 1] == 128)
    }

    @Test("odd sizes in 4:2:0 draw to the last pixel and the last chroma sample")
    func oddSizes() {
        var image = YCbCrImage(width: 641, height: 479, subsampling: .s420)
        Painter().fill(
            .roundedRectangle(x: 600, y: 440, width: 100, height: 100, radius: 0), color: .white, on: &image)
        #expect(image.planes[0][640, 478] == 255)
        #expect(image.planes[1].width == 321 && image.planes[1][320, 239] == 128)
        #expect(image.planes[0][599, 478] == 128)
    }

    @Test("colours parse from #rgb, #rrggbb and #rrggbbaa")
    func colours() {
        #expect(RGBAColor(hex: "#e63946") == RGBAColor(red: 0xE6, green: 0x39, blue: 0x46))
        #expect(RGBAColor(hex: "fff") == .white)
        #expect(RGBAColor(hex: "#00000080")?.alpha == 0x80)
        #expect(RGBAColor(hex: "#12345") == nil && RGBAColor(hex: "zzzzzz") == nil)
    }

    @Test("a stamped mask draws the same as filling its shape, and clips at the frame's edges")
    func stampedMask() {
        let painter = Painter()
        let shape = Shape.circle(center: SIMD2(10, 10), radius: 8)
        let mask = painter.mask(of: shape, width: 20, height: 20)
        #expect(abs(Double(mask.values.reduce(0) { $0 + Int($1) }) / 255 / (Double.pi * 64) - 1) < 0.01)
        var filled = YCbCrImage(width: 64, height: 48, subsampling: .s420)
        var stamped = filled
        let red = RGBAColor(red: 230, green: 57, blue: 70, alpha: 200)
        painter.fill(Shape(contours: shape.contours.map { $0.map { $0 + SIMD2(30, 12) } }), color: red, on: &filled)
        painter.stamp(mask, x: 30, y: 12, color: red, on: &stamped)
        for index in 0..<3 {
            let difference = zip(filled.planes[index].bytes, stamped.planes[index].bytes).map { abs(Int($0) - Int($1)) }
            #expect(difference.max() ?? 0 <= 1, "plane \(index)")
        }
        // Half off the left and bottom edges: no crash, and the visible part is drawn.
        painter.stamp(mask, x: -10, y: 40, color: .white, on: &stamped)
        #expect(stamped.planes[0][0, 47] > 128)
    }

    @Test(
        "a sprite of layers draws as its layers composed at full resolution, within 2 levels, in every chroma layout",
        arguments: [ChromaSubsampling.s444, .s422, .s420, .gray])
    func spriteEqualsLayers(subsampling: ChromaSubsampling) {
        let painter = Painter()
        let plate = painter.mask(
            of: .roundedRectangle(x: 0, y: 0, width: 40, height: 16, radius: 4), width: 40, height: 16)
        let dot = painter.mask(of: .circle(center: SIMD2(20, 8), radius: 6), width: 40, height: 16)
        let ring = painter.mask(of: .ring(center: SIMD2(20, 8), radius: 6, width: 2), width: 40, height: 16)
        let layers = [
            (plate, RGBAColor(red: 0, green: 0, blue: 0, alpha: 120)), (dot, RGBAColor(red: 230, green: 57, blue: 70)),
            (ring, RGBAColor(red: 255, green: 255, blue: 255, alpha: 200)),
        ]
        // A background with detail, so every sample blends with a different value.
        var background = YCbCrImage(width: 63, height: 41, subsampling: subsampling)
        for index in background.planes.indices {
            for i in background.planes[index].bytes.indices {
                background.planes[index].bytes[i] = UInt8(truncatingIfNeeded: i &* 37 &+ index &* 91)
            }
        }
        // The reference: the layers stamped one by one at full chroma resolution (the background's
        // chroma repeated over each cell), then each chroma cell averaged, which is what compositing
        // in RGB and subsampling afterwards gives.
        let (h, v) =
            subsampling == .gray ? (1, 1) : (subsampling.horizontalFactor, subsampling.verticalFactor)
        var full = YCbCrImage(width: 63, height: 41, subsampling: subsampling == .gray ? .gray : .s444)
        for index in full.planes.indices {
            for y in 0..<41 {
                for x in 0..<63 {
                    full.planes[index][x, y] =
                        index == 0 ? background.planes[0][x, y] : background.planes[index][x / h, y / v]
                }
            }
        }
        for (mask, color) in layers { painter.stamp(mask, x: 12, y: 10, color: color, on: &full) }
        var drawn = background
        let sprite = Sprite(
            width: 40, height: 16, h: h, v: v, layers: layers.map { Sprite.Layer(mask: $0.0, x: 0, y: 0, color: $0.1) })
        painter.draw(sprite, x: 12, y: 10, on: &drawn)
        for index in drawn.planes.indices {
            let plane = drawn.planes[index]
            var worst = 0
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    var sum = 0
                    var count = 0
                    for dy in 0..<(index == 0 ? 1 : v) {
                        for dx in 0..<(index == 0 ? 1 : h) {
                            let (fx, fy) = (index == 0 ? x : x * h + dx, index == 0 ? y : y * v + dy)
                            guard fx < 63, fy < 41 else { continue }
                            sum += Int(full.planes[index][fx, fy])
                            count += 1
                        }
                    }
                    worst = max(worst, abs(Int(plane[x, y]) * count - sum) / max(count, 1))
                }
            }
            #expect(worst <= 2, "plane \(index): \(worst) levels")
        }
        // Clipped at the edges without a crash: the visible part is drawn, the rest untouched.
        var edge = background
        painter.draw(sprite, x: 40, y: 30, on: &edge)
        #expect(edge.planes[0][45, 33] != background.planes[0][45, 33])
        #expect(edge.planes[0][10, 10] == background.planes[0][10, 10])
    }

    @Test("on packed YUYV, fills and stamps give exactly the bytes of planar 4:2:2 packed afterwards")
    func packedYUYV() throws {
        let painter = Painter()
        let (width, height) = (98, 37)
        var planar = YCbCrImage(width: width, height: height, subsampling: .s422)
        for index in 0..<3 {
            for i in planar.planes[index].bytes.indices {
                planar.planes[index].bytes[i] = UInt8(truncatingIfNeeded: i &* 13 &+ index &* 71)
            }
        }
        func packed(_ image: YCbCrImage) -> [UInt8] {
            var bytes: [UInt8] = []
            for y in 0..<height {
                for pair in 0..<(width / 2) {
                    bytes += [
                        image.planes[0][pair * 2, y], image.planes[1][pair, y], image.planes[0][pair * 2 + 1, y],
                        image.planes[2][pair, y],
                    ]
                }
            }
            return bytes
        }
        var yuyv = try #require(YUYVImage(width: width, height: height, bytes: packed(planar)))
        let shapes: [(Shape, RGBAColor)] = [
            (.circle(center: SIMD2(20.3, 17.7), radius: 11), RGBAColor(red: 230, green: 57, blue: 70, alpha: 200)),
            (.line(from: SIMD2(-5, 3), to: SIMD2(90, 33), width: 3), .white),
            (
                .polygon([SIMD2(60, 2), SIMD2(110, 20), SIMD2(70, 40)]),
                RGBAColor(red: 30, green: 136, blue: 229, alpha: 150)
            ),
        ]
        for (shape, color) in shapes {
            painter.fill(shape, color: color, on: &planar)
            painter.fill(shape, color: color, on: &yuyv)
        }
        let mask = painter.mask(of: .circle(center: SIMD2(6, 6), radius: 5), width: 13, height: 13)
        for (x, y) in [(41, 5), (-3, 30), (91, 20)] {
            painter.stamp(mask, x: x, y: y, color: .black, on: &planar)
            painter.stamp(mask, x: x, y: y, color: .black, on: &yuyv)
        }
        #expect(yuyv.bytes == packed(planar))
        #expect(YUYVImage(width: 3, height: 2, bytes: [UInt8](repeating: 0, count: 12)) == nil)
        #expect(YUYVImage(width: 4, height: 2, bytes: [UInt8](repeating: 0, count: 15)) == nil)
    }

    @Test(
        "one-pass fills blend every sample with the rasteriser's coverage, exactly",
        arguments: [ChromaSubsampling.s444, .s422, .s420, .gray], [255, 170])
    func onePassFill(subsampling: ChromaSubsampling, alpha: Int) {
        // A ring (a hole), a sliver and polygons running off the right and bottom edges, overlapping,
        // on a frame of odd width and height (blocks of 16 columns end in every phase), over a
        // background with detail.
        let shape = Shape(
            contours: Shape.ring(center: SIMD2(60.4, 50.2), radius: 40, width: 12).contours
                + [
                    [SIMD2(120.2, 3.1), SIMD2(121.9, 3.3), SIMD2(126.6, 86.7)],
                    [SIMD2(150.5, 10.5), SIMD2(340.0, 20.25), SIMD2(290.1, 80.8), SIMD2(90.3, 70.6)],
                    [SIMD2(200.2, 60.4), SIMD2(230.7, 120.3), SIMD2(180.1, 100.9)],  // off the bottom
                ])
        let color = RGBAColor(red: 30, green: 140, blue: 230, alpha: UInt8(alpha))
        var background = YCbCrImage(width: 301, height: 91, subsampling: subsampling)
        for index in background.planes.indices {
            for i in background.planes[index].bytes.indices {
                background.planes[index].bytes[i] = UInt8(truncatingIfNeeded: i &* 29 &+ index &* 71)
            }
        }
        var drawn = background
        let painter = Painter()
        painter.fill(shape, color: color, on: &drawn)

        // The reference: the rasteriser's coverage (tested above against areas), blended sample by
        // sample with the formula the kernels document.
        let (h, v) = subsampling == .gray ? (1, 1) : (subsampling.horizontalFactor, subsampling.verticalFactor)
        let rasterizer = CoverageRasterizer()
        let (limitX, limitY) =
            subsampling == .gray ? (301, 91) : (background.planes[1].width * h, background.planes[1].height * v)
        #expect(rasterizer.rasterize(shape, clipWidth: limitX, clipHeight: limitY, alignX: h, alignY: v))
        let box = rasterizer.box
        let coverage = rasterizer.coverage().map { Int($0 * 65536) }
        let (yValue, cbValue, crValue) = color.ycbcr(in: .full)
        let targets = [yValue, cbValue, crValue].map { Int($0.rounded()) }
        let opacity = (alpha * 256 + 127) / 255
        func blended(_ old: UInt8, weight: Int, target: Int) -> UInt8 {
            let a = opacity >= 256 ? weight : (weight * opacity) >> 8
            return UInt8((Int(old) * (256 - a) + target * a + 128) >> 8)
        }
        var expected = background
        for row in 0..<box.height {
            for column in 0..<box.width {
                let index = (box.y + row) * expected.planes[0].stride + box.x + column
                expected.planes[0].bytes[index] = blended(
                    background.planes[0].bytes[index], weight: coverage[row * box.width + column] >> 8,
                    target: targets[0])
            }
        }
        if subsampling != .gray {
            for cellRow in 0..<box.height / v {
                for cell in 0..<box.width / h {
                    var sum = 0
                    for dy in 0..<v {
                        for dx in 0..<h { sum += coverage[(cellRow * v + dy) * box.width + cell * h + dx] }
                    }
                    for plane in 1...2 {
                        let index = (box.y / v + cellRow) * expected.planes[plane].stride + box.x / h + cell
                        expected.planes[plane].bytes[index] = blended(
                            background.planes[plane].bytes[index], weight: sum >> (8 + (h * v).trailingZeroBitCount),
                            target: targets[plane])
                    }
                }
            }
        }
        for index in drawn.planes.indices {
            let differing = zip(drawn.planes[index].bytes, expected.planes[index].bytes).filter { $0 != $1 }.count
            #expect(differing == 0, "plane \(index): \(differing) samples differ")
        }
        #expect(drawn.planes[0].bytes != background.planes[0].bytes)

        // The painter's buffers are left clean: the next shape, on a frame of another width, is
        // drawn as a fresh painter draws it.
        let next = Shape.circle(center: SIMD2(30.5, 20.5), radius: 15)
        var reused = YCbCrImage(width: 64, height: 48, subsampling: subsampling)
        var fresh = reused
        painter.fill(next, color: color, on: &reused)
        Painter().fill(next, color: color, on: &fresh)
        #expect(reused == fresh)
    }

    @Test("a shape that reaches past the right edge in some rows leaves nothing behind for the next shape")
    func nothingLeftBehind() {
        let reused = CoverageRasterizer()
        // A triangle whose lower rows lie wholly right of a 40-pixel-wide clip.
        let spill = Shape.polygon([SIMD2(30, 0), SIMD2(90, 10), SIMD2(60, 30)])
        #expect(reused.rasterize(spill, clipWidth: 40, clipHeight: 30))
        _ = reused.coverage()
        let next = Shape.circle(center: SIMD2(12.3, 9.7), radius: 7)
        reused.rasterize(next, clipWidth: 64, clipHeight: 48)
        let fresh = CoverageRasterizer()
        fresh.rasterize(next, clipWidth: 64, clipHeight: 48)
        #expect(reused.coverage() == fresh.coverage())
        // Rows no edge touches (between two squares far apart) read as empty.
        let apart = Shape(contours: [
            [SIMD2(2, 2), SIMD2(8, 2), SIMD2(8, 6), SIMD2(2, 6)],
            [SIMD2(2, 30), SIMD2(8, 30), SIMD2(8, 36), SIMD2(2, 36)],
        ])
        reused.rasterize(apart, clipWidth: 64, clipHeight: 48)
        let coverage = reused.coverage()
        #expect(abs(Double(coverage.reduce(0, +)) - 60) < 0.01)
    }
}
