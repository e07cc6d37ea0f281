/// A small picture with alpha, premultiplied, in YCbCr at one chroma subsampling: layers composed
/// once (a label's plate, halo and text; a marker's fill and ring) and then drawn frame after frame
/// in a single pass per plane.
///
/// Blending is linear in YCbCr as in RGB (full-range BT.601 is an affine map whose blend weights
/// sum to one), so composing layers here and drawing the result equals drawing the layers one by
/// one, to rounding. Chroma holds each cell's mean of the luma pixels it covers, as the painter
/// blends chroma. A sprite is drawn at positions that are whole chroma cells (`x` a multiple of the
/// horizontal factor, `y` of the vertical one).
struct Sprite: Sendable {
    /// Size in luma pixels.
    let width: Int
    let height: Int
    /// The chroma factors it was built for (1, 1 for grey frames too).
    let h: Int
    let v: Int
    let chromaWidth: Int
    let chromaHeight: Int
    /// Per luma pixel: alpha (0…255) and Y × alpha / 255 (premultiplied), in bytes, so drawing
    /// works in 16-bit lanes: `new = value + old × (255 − alpha) / 255` never exceeds 255.
    let lumaAlpha: [UInt8]
    let lumaValue: [UInt8]
    /// Per chroma cell: alpha, Cb × alpha / 255, Cr × alpha / 255.
    let chromaAlpha: [UInt8]
    let cbValue: [UInt8]
    let crValue: [UInt8]

    /// One layer: a mask in a colour at an offset inside the sprite.
    struct Layer {
        var mask: CoverageMask
        var x: Int
        var y: Int
        var color: RGBAColor
    }

    /// Composes `layers`, first at the bottom, into a sprite `width`×`height` for chroma factors
    /// `h`×`v` (the size is rounded up to whole cells), in the frames' sample `range`.
    init(width: Int, height: Int, h: Int, v: Int, layers: [Layer], range: SampleRange = .full) {
        let width = (width + h - 1) / h * h
        let height = (height + v - 1) / v * v
        self.width = width
        self.height = height
        self.h = h
        self.v = v
        chromaWidth = width / h
        chromaHeight = height / v
        // Premultiplied composition in floating point: P = P(1 − α) + cα, A = A(1 − α) + α.
        var alpha = [Float](repeating: 0, count: width * height)
        var luma = alpha
        var cb = alpha
        var cr = alpha
        for layer in layers {
            let (y, u, w) = layer.color.ycbcr(in: range)
            let opacity = Float(layer.color.alpha) / 255
            for row in 0..<layer.mask.height {
                let targetRow = layer.y + row
                guard targetRow >= 0, targetRow < height else { continue }
                for column in 0..<layer.mask.width {
                    let targetColumn = layer.x + column
                    guard targetColumn >= 0, targetColumn < width else { continue }
                    let coverage = Float(layer.mask.values[row * layer.mask.width + column]) / 255 * opacity
                    guard coverage > 0 else { continue }
                    let index = targetRow * width + targetColumn
                    let keep = 1 - coverage
                    alpha[index] = alpha[index] * keep + coverage
                    luma[index] = luma[index] * keep + Float(y) * coverage
                    cb[index] = cb[index] * keep + Float(u) * coverage
                    cr[index] = cr[index] * keep + Float(w) * coverage
                }
            }
        }
        // Alpha rounded first, and each value kept at or below it (a premultiplied sample cannot
        // exceed its alpha × 255 / 255), so drawing never overflows a byte.
        func quantised(_ value: Float) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }
        func quantised(_ value: Float, alpha: Float) -> UInt8 {
            min(quantised(value), quantised(alpha * 255))
        }
        lumaAlpha = alpha.map { quantised($0 * 255) }
        lumaValue = zip(luma, alpha).map { quantised($0, alpha: $1) }
        var cellAlpha = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        var cellCb = cellAlpha
        var cellCr = cellAlpha
        let cellArea = Float(h * v)
        for row in 0..<chromaHeight {
            for column in 0..<chromaWidth {
                var sums: (Float, Float, Float) = (0, 0, 0)
                for dy in 0..<v {
                    for dx in 0..<h {
                        let index = (row * v + dy) * width + column * h + dx
                        sums.0 += alpha[index]
                        sums.1 += cb[index]
                        sums.2 += cr[index]
                    }
                }
                let cell = row * chromaWidth + column
                cellAlpha[cell] = quantised(sums.0 / cellArea * 255)
                cellCb[cell] = quantised(sums.1 / cellArea, alpha: sums.0 / cellArea)
                cellCr[cell] = quantised(sums.2 / cellArea, alpha: sums.0 / cellArea)
            }
        }
        chromaAlpha = cellAlpha
        cbValue = cellCb
        crValue = cellCr
    }

    /// Bytes held, for bounding caches.
    var byteCount: Int { lumaAlpha.count * 2 + chromaAlpha.count * 3 }
}
