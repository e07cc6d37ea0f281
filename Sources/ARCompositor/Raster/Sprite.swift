import CRasterKernels

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

    /// One layer: a mask in a colour at an offset inside the sprite, or (with `image`) a picture
    /// in its own colours (a label's colour emoji), the mask then unused.
    struct Layer {
        var mask: CoverageMask
        var x: Int
        var y: Int
        var color: RGBAColor
        var image: ColorBitmap? = nil
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
        // Premultiplied composition in floating point: P = P(1 − α) + cα, A = A(1 − α) + α, in
        // C (labels and the panel are composed again whenever their text changes: every few
        // frames while driving).
        var alpha = [Float](repeating: 0, count: width * height)
        var luma = alpha
        var cb = alpha
        var cr = alpha
        alpha.withUnsafeMutableBufferPointer { alpha in
            luma.withUnsafeMutableBufferPointer { luma in
                cb.withUnsafeMutableBufferPointer { cb in
                    cr.withUnsafeMutableBufferPointer { cr in
                        for layer in layers {
                            if let image = layer.image {
                                Self.compose(
                                    image, x: layer.x, y: layer.y, width: width, height: height,
                                    range: range, into: (alpha, luma, cb, cr))
                                continue
                            }
                            let (y, u, w) = layer.color.ycbcr(in: range)
                            layer.mask.values.withUnsafeBufferPointer { mask in
                                guard let source = mask.baseAddress, let a = alpha.baseAddress,
                                    let l = luma.baseAddress, let b = cb.baseAddress, let r = cr.baseAddress
                                else { return }
                                craster_compose_layer(
                                    a, l, b, r, Int32(width), Int32(height), source, Int32(layer.mask.width),
                                    Int32(layer.mask.height), Int32(layer.x), Int32(layer.y), Float(y), Float(u),
                                    Float(w), Float(layer.color.alpha) / 255)
                            }
                        }
                    }
                }
            }
        }
        // Alpha rounded first, and each value kept at or below it (a premultiplied sample cannot
        // exceed its alpha × 255 / 255), so drawing never overflows a byte.
        var outputs = (
            [UInt8](repeating: 0, count: width * height), [UInt8](repeating: 0, count: width * height),
            [UInt8](repeating: 0, count: chromaWidth * chromaHeight),
            [UInt8](repeating: 0, count: chromaWidth * chromaHeight),
            [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        )
        outputs.0.withUnsafeMutableBufferPointer { lumaAlpha in
            outputs.1.withUnsafeMutableBufferPointer { lumaValue in
                outputs.2.withUnsafeMutableBufferPointer { chromaAlpha in
                    outputs.3.withUnsafeMutableBufferPointer { cbValue in
                        outputs.4.withUnsafeMutableBufferPointer { crValue in
                            craster_finish_sprite(
                                alpha, luma, cb, cr, Int32(width), Int32(height), Int32(h), Int32(v),
                                lumaAlpha.baseAddress, lumaValue.baseAddress, chromaAlpha.baseAddress,
                                cbValue.baseAddress, crValue.baseAddress)
                        }
                    }
                }
            }
        }
        lumaAlpha = outputs.0
        lumaValue = outputs.1
        chromaAlpha = outputs.2
        cbValue = outputs.3
        crValue = outputs.4
    }

    /// `image` (premultiplied sRGB) composed over the layers below at (`x`, `y`): in Swift, pixel
    /// by pixel, since only colour glyphs come this way and a label is composed once.
    private static func compose(
        _ image: ColorBitmap, x: Int, y: Int, width: Int, height: Int, range: SampleRange,
        into planes: (
            alpha: UnsafeMutableBufferPointer<Float>, luma: UnsafeMutableBufferPointer<Float>,
            cb: UnsafeMutableBufferPointer<Float>, cr: UnsafeMutableBufferPointer<Float>
        )
    ) {
        for row in max(0, -y)..<min(image.height, height - y) {
            for column in max(0, -x)..<min(image.width, width - x) {
                let source = (row * image.width + column) * 4
                let coverage = Float(image.rgba[source + 3]) / 255
                guard coverage > 0 else { continue }
                // Unpremultiplied for the colour conversion (Y, Cb and Cr are affine in R, G, B).
                let unit = 1 / coverage
                let color = RGBAColor(
                    red: UInt8(min(255, (Float(image.rgba[source]) * unit).rounded())),
                    green: UInt8(min(255, (Float(image.rgba[source + 1]) * unit).rounded())),
                    blue: UInt8(min(255, (Float(image.rgba[source + 2]) * unit).rounded())))
                let (l, u, w) = color.ycbcr(in: range)
                let index = (y + row) * width + x + column
                let keep = 1 - coverage
                planes.alpha[index] = planes.alpha[index] * keep + coverage
                planes.luma[index] = planes.luma[index] * keep + Float(l) * coverage
                planes.cb[index] = planes.cb[index] * keep + Float(u) * coverage
                planes.cr[index] = planes.cr[index] * keep + Float(w) * coverage
            }
        }
    }

    /// Bytes held, for bounding caches.
    var byteCount: Int { lumaAlpha.count * 2 + chromaAlpha.count * 3 }
}
