import ArcaptureCore
import CRasterKernels
import Footage

/// The overlay alone, with its alpha, for an editor to lay over the footage: the frame's drawing
/// done twice, on black and on white, and the two told apart.
///
/// Why two drawings rather than a painter that keeps alpha: every primitive the compositor draws
/// (shapes, glyph masks, sprites, the plan view) blends `new = old × (1 − α) + colour × α` in
/// YCbCr, which is linear in `old`. On black (Y 0) a stack of such blends leaves the colour
/// premultiplied by the stack's coverage; on white (Y 255) it leaves the same plus 255 × (1 −
/// coverage), so their difference is the alpha, exactly, for anything drawn now or later, with no
/// second code path in the painter's kernels to keep in step. The second drawing reuses the
/// first's layout (`FrameAnnotator.reusesLastLayout`, as a spliced frame's does), and costs a few
/// percent of a frame's work.
///
/// The canvases have the footage's own layout (4:2:0 for most video), in full range: the drawing
/// lands on the same pixels as annotate's burned-in output (sprites sit on whole chroma cells),
/// so the overlay laid over the footage is that output. The alpha is the luma's, per pixel; each
/// chroma cell's colour is divided by its pixels' mean alpha, as the painter blends it with their
/// mean coverage.
enum OverlayMatte {
    /// A canvas of `width` × `height` in `subsampling` (full range), every pixel Y `luma` and
    /// neutral chroma; `reusing`'s storage when it has that size and layout.
    static func canvas(
        width: Int, height: Int, subsampling: ChromaSubsampling, luma: UInt8, reusing old: consuming YCbCrImage?
    ) -> YCbCrImage {
        let subsampling = subsampling == .gray ? .s444 : subsampling
        guard var image = old, image.width == width, image.height == height, image.subsampling == subsampling else {
            var made = YCbCrImage(width: width, height: height, subsampling: subsampling)
            made.planes[0].bytes.withUnsafeMutableBufferPointer { $0.update(repeating: luma) }
            return made
        }
        image.planes[0].bytes.withUnsafeMutableBufferPointer { $0.update(repeating: luma) }
        for index in 1..<image.planes.count {
            image.planes[index].bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 128) }
        }
        return image
    }

    /// The overlay drawn on `black` and on `white` (canvases from
    /// ``canvas(width:height:subsampling:luma:reusing:)`` with Y 0 and 255) as a picture in
    /// `layout`: straight (not premultiplied) colour and alpha; YCbCr layouts in BT.601 limited
    /// range (the compositor's colours, as a video's), RGB layouts the style's sRGB.
    static func picture(black: borrowing YCbCrImage, white: borrowing YCbCrImage, layout: VideoPicture.Layout)
        -> VideoPicture
    {
        let (width, height) = (black.width, black.height)
        let (h, v) = (black.subsampling.horizontalFactor, black.subsampling.verticalFactor)
        let stride = black.planes[0].stride
        let chromaStride = black.planes[1].stride
        let chromaWidth = black.planes[1].width
        let chromaRows = black.planes[1].height
        // The arithmetic is CRasterKernels' (one row a call), as the painter's is: per-sample Swift
        // ran ten times slower in a debug build, the tests', and was no faster when optimised.
        var alpha = [UInt8](repeating: 0, count: width * height)
        var luma = [Float](repeating: 0, count: width * height)
        var cellCb = [Float](repeating: 0, count: chromaWidth * chromaRows)
        var cellCr = cellCb
        black.planes[0].bytes.withUnsafeBufferPointer { blackY in
            white.planes[0].bytes.withUnsafeBufferPointer { whiteY in
                alpha.withUnsafeMutableBufferPointer { alpha in
                    luma.withUnsafeMutableBufferPointer { luma in
                        guard let blackY = blackY.baseAddress, let whiteY = whiteY.baseAddress,
                            let alpha = alpha.baseAddress, let luma = luma.baseAddress
                        else { return }
                        for y in 0..<height {
                            craster_matte_row(
                                blackY + y * stride, whiteY + y * stride, Int32(width), alpha + y * width,
                                luma + y * width)
                        }
                    }
                }
            }
        }
        alpha.withUnsafeBufferPointer { alpha in
            black.planes[1].bytes.withUnsafeBufferPointer { blackCb in
                black.planes[2].bytes.withUnsafeBufferPointer { blackCr in
                    cellCb.withUnsafeMutableBufferPointer { cellCb in
                        cellCr.withUnsafeMutableBufferPointer { cellCr in
                            guard let alpha = alpha.baseAddress, let blackCb = blackCb.baseAddress,
                                let blackCr = blackCr.baseAddress, let cellCb = cellCb.baseAddress,
                                let cellCr = cellCr.baseAddress
                            else { return }
                            for row in 0..<chromaRows {
                                let rows = min(v, height - row * v)
                                guard rows > 0 else { continue }
                                craster_matte_cells(
                                    alpha + row * v * width, Int32(width), Int32(rows), Int32(h),
                                    blackCb + row * chromaStride, blackCr + row * chromaStride, Int32(chromaWidth),
                                    cellCb + row * chromaWidth, cellCr + row * chromaWidth)
                            }
                        }
                    }
                }
            }
        }
        var picture = VideoPicture(width: width, height: height, layout: layout)
        let rows = MatteRows(
            width: width, h: h, v: v, chromaWidth: chromaWidth, alpha: alpha, luma: luma, cb: cellCb, cr: cellCr)
        switch layout {
        case .rgba, .argb:
            let order: [Int32] = layout == .rgba ? [0, 1, 2, 3] : [1, 2, 3, 0]
            picture.planes[0].withUnsafeMutableBufferPointer { plane in
                guard let plane = plane.baseAddress else { return }
                rows.forEach(height: height) { y, luma, alpha, cb, cr in
                    craster_matte_rgb_row(
                        luma, alpha, cb, cr, Int32(width), Int32(h), order[0], order[1], order[2], order[3],
                        plane + y * width * 4)
                }
            }
        case .yuva444p10:
            var (p0, p1, p2, p3) = (picture.planes[0], picture.planes[1], picture.planes[2], picture.planes[3])
            picture.planes = []
            p0.withUnsafeMutableBytes { y in
                p1.withUnsafeMutableBytes { u in
                    p2.withUnsafeMutableBytes { v in
                        p3.withUnsafeMutableBytes { a in
                            let (y, u, v, a) = (
                                y.bindMemory(to: UInt16.self), u.bindMemory(to: UInt16.self),
                                v.bindMemory(to: UInt16.self), a.bindMemory(to: UInt16.self)
                            )
                            guard let y = y.baseAddress, let u = u.baseAddress, let v = v.baseAddress,
                                let a = a.baseAddress
                            else { return }
                            // Little-endian words, as FFmpeg's yuva444p10le and every machine this runs on.
                            rows.forEach(height: height) { row, luma, alpha, cb, cr in
                                let offset = row * width
                                craster_matte_yuva10_row(
                                    luma, alpha, cb, cr, Int32(width), Int32(h), y + offset, u + offset, v + offset,
                                    a + offset)
                            }
                        }
                    }
                }
            }
            picture.planes = [p0, p1, p2, p3]
        case .yuva420p:
            // VP9's 4:2:0 (libvpx is far slower than this loop): each sample the mean of its 2 × 2
            // pixels' straight chroma weighted by their alpha, so a label's edge does not pull in
            // the black behind it.
            for pixel in 0..<(width * height) {
                picture.planes[0][pixel] = byte(16 + luma[pixel] * 219 / 255)
            }
            picture.planes[3] = alpha
            let outputWidth = (width + 1) / 2
            for oy in 0..<(height + 1) / 2 {
                for ox in 0..<outputWidth {
                    var (weight, cb, cr): (Float, Float, Float) = (0, 0, 0)
                    for y in (oy * 2)..<min(oy * 2 + 2, height) {
                        for x in (ox * 2)..<min(ox * 2 + 2, width) {
                            let a = Float(alpha[y * width + x])
                            let cell = (y / v) * chromaWidth + x / h
                            weight += a
                            cb += cellCb[cell] * a
                            cr += cellCr[cell] * a
                        }
                    }
                    let index = oy * outputWidth + ox
                    picture.planes[1][index] = byte(128 + (weight > 0 ? cb / weight : 0) * 224 / 255)
                    picture.planes[2][index] = byte(128 + (weight > 0 ? cr / weight : 0) * 224 / 255)
                }
            }
        }
        return picture
    }

    /// A picture's rows taken apart: straight luma and alpha per pixel, straight chroma per cell.
    private struct MatteRows {
        let width: Int
        let h: Int
        let v: Int
        let chromaWidth: Int
        let alpha: [UInt8]
        let luma: [Float]
        let cb: [Float]
        let cr: [Float]

        /// Calls `body` with each row's number and pointers to its luma, alpha and cells.
        func forEach(
            height: Int,
            _ body: (
                Int, UnsafePointer<Float>, UnsafePointer<UInt8>, UnsafePointer<Float>, UnsafePointer<Float>
            ) -> Void
        ) {
            luma.withUnsafeBufferPointer { luma in
                alpha.withUnsafeBufferPointer { alpha in
                    cb.withUnsafeBufferPointer { cb in
                        cr.withUnsafeBufferPointer { cr in
                            guard let luma = luma.baseAddress, let alpha = alpha.baseAddress,
                                let cb = cb.baseAddress, let cr = cr.baseAddress
                            else { return }
                            for y in 0..<height {
                                let cells = (y / v) * chromaWidth
                                body(y, luma + y * width, alpha + y * width, cb + cells, cr + cells)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func byte(_ value: Float) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
}
