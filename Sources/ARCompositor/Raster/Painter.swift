import ArcaptureCore
import CRasterKernels

/// Draws shapes onto a planar YCbCr frame in its own layout (4:4:4, 4:2:2, 4:2:0, grey), with no
/// RGB round trip.
///
/// A colour becomes YCbCr once per shape. Luma is blended per pixel with the shape's exact
/// coverage; each chroma sample is blended once, at chroma resolution, with the mean coverage of
/// the luma pixels it spans, so a 4:2:0 edge is as soft as the eye expects and no chroma sample is
/// blended twice. Because the YCbCr conversion is affine, blending there equals blending in RGB.
///
/// Rows are produced, blended and cleared in one pass (the shape's box is aligned to whole chroma
/// cells, inside the luma padding every `YCbCrImage` has), and all buffers are reused: drawing
/// allocates nothing once they have grown. Not thread-safe: use one painter per drawing thread.
public final class Painter {
    private let rasterizer = CoverageRasterizer()
    /// Coverage (0…65536) of the luma rows one chroma row spans, and the chroma cells' sums.
    private var rows: [Int32] = []

    /// The outline of the last line drawn by ``fillLine(from:to:width:color:on:)``, kept to be
    /// refilled: thin lines (leader lines) are drawn every frame.
    private var lineShape = Shape(contours: [[]])

    /// The sample range of the frames painted on: colours are converted to it.
    public var sampleRange = SampleRange.full

    /// Rows rasterised at a time (a multiple of every vertical chroma factor; tests set it higher
    /// to compare with shapes rasterised whole). 32 rows of a 720p frame's accumulation are 164 KB,
    /// which stay in a core's cache while they are read back: at 128 rows (656 KB) a third of the
    /// ribbon's fill time was spent waiting for them.
    var bandHeight = 32

    /// Called with the rows and columns of a frame a drawing is about to read and change, before
    /// it touches them. A spliced JPEG frame (JPEGKit's `JPEGSplicer`) decodes only the MCUs
    /// drawn on, here. The region is whole chroma cells, within the frame; nil (the default): every
    /// pixel is there.
    public var willChange: ((_ rows: Range<Int>, _ columns: Range<Int>, inout YCbCrImage) -> Void)?

    /// Creates a painter.
    public init() {}

    /// Fills a line with round caps, as `fill(.line(from: a, to: b, width: width), …)` does, in a
    /// buffer kept between calls (no allocation once it has grown).
    public func fillLine(
        from a: SIMD2<Double>, to b: SIMD2<Double>, width: Double, color: RGBAColor, on image: inout YCbCrImage
    ) {
        lineShape.contours[0].removeAll(keepingCapacity: true)
        Shape.appendLine(from: a, to: b, width: width, into: &lineShape.contours[0])
        fill(lineShape, color: color, on: &image)
    }

    /// Fills `shape` with `color` (its alpha included) on `image`; the parts outside are clipped.
    public func fill(_ shape: Shape, color: RGBAColor, on image: inout YCbCrImage) {
        guard color.alpha > 0 else { return }
        let layout = Layout(image)
        guard
            let rows = CoverageRasterizer.rows(
                of: shape, clipWidth: layout.limitX, clipHeight: layout.limitY, alignY: layout.v)
        else { return }
        // Tall shapes (the route's ribbon) in bands of rows, so the rasteriser's buffer stays a band
        // high: a whole ribbon at 1080p needed 4 MB of it per worker.
        for top in stride(from: rows.lowerBound, to: rows.upperBound, by: bandHeight) {
            guard
                rasterizer.rasterize(
                    shape, clipWidth: layout.limitX, clipHeight: layout.limitY, alignX: layout.h, alignY: layout.v,
                    rows: top..<min(top + bandHeight, rows.upperBound))
            else { continue }
            let box = rasterizer.box
            if let willChange { report(box, h: layout.h, to: willChange, on: &image) }
            switch (layout.h, layout.v) {
            case (1, 1), (2, 1): fillRows(box: box, h: layout.h, color: color, on: &image)
            case (2, 2): fillRowPairs(box: box, color: color, on: &image)
            default:  // 4:1:1, 4:4:0: rows of coverage, then the blends
                rasterizer.withRows { reader in
                    paint(box: box, layout: layout, color: color, on: &image) { row, line in
                        reader.take(row: row, into: line)
                    }
                }
            }
        }
    }

    /// The rasterised shape's rows blended onto a 4:2:2, 4:4:4 or grey frame (chroma cells `h`
    /// wide, one row high), each row in one pass from the accumulation with the coverage kept in
    /// registers: the route's ribbon covers a third of a frame, and five passes over 32-bit rows
    /// (coverage, luma blend, cell sums, two chroma blends) cost it ~7 % of a frame's time.
    private func fillRows(
        box: (x: Int, y: Int, width: Int, height: Int), h: Int, color: RGBAColor, on image: inout YCbCrImage
    ) {
        let values = blendValues(color)
        PlanePointers.withPlanes(of: &image) { planes in
            rasterizer.withRows { reader in
                for row in 0..<box.height {
                    let y = box.y + row
                    let chroma = y * planes.chromaStride + box.x / h
                    reader.fill(
                        row: row, luma: planes.luma + y * planes.lumaStride + box.x,
                        cb: planes.cb.map { $0 + chroma }, cr: planes.cr.map { $0 + chroma }, h: h, color: values)
                }
            }
        }
    }

    /// Tells `willChange` what the rasterised shape in `box` will change: for every 8 frame rows
    /// (an MCU row of most JPEG frames, half of one in 4:2:0) the columns those rows cover, not the
    /// box's. A tall shape's box holds much it does not cover: a perspective ribbon's, the
    /// triangles beside it, which a spliced frame would otherwise decode and encode again.
    private func report(
        _ box: (x: Int, y: Int, width: Int, height: Int), h: Int,
        to willChange: (Range<Int>, Range<Int>, inout YCbCrImage) -> Void, on image: inout YCbCrImage
    ) {
        var top = box.y
        while top < box.y + box.height {
            let bottom = min(box.y + box.height, (top / 8 + 1) * 8)
            if let columns = rasterizer.columns(ofRows: (top - box.y)..<(bottom - box.y), align: h) {
                willChange(top..<bottom, columns, &image)
            }
            top = bottom
        }
    }

    /// The rasterised shape's rows blended onto a 4:2:0 frame (most video, some cameras' MJPEG),
    /// two luma rows and the chroma row they share at a time, as ``fillRows(box:h:color:on:)``.
    private func fillRowPairs(
        box: (x: Int, y: Int, width: Int, height: Int), color: RGBAColor, on image: inout YCbCrImage
    ) {
        let values = blendValues(color)
        PlanePointers.withPlanes(of: &image) { planes in
            guard let cb = planes.cb, let cr = planes.cr else { return }
            rasterizer.withRows { reader in
                for row in stride(from: 0, to: box.height, by: 2) {
                    let y = box.y + row
                    let chroma = y / 2 * planes.chromaStride + box.x / 2
                    reader.fillPair(
                        row: row, pair: row + 1 < box.height, luma: planes.luma + y * planes.lumaStride + box.x,
                        lumaStride: planes.lumaStride, cb: cb + chroma, cr: cr + chroma, color: values)
                }
            }
        }
    }

    /// Draws `mask` with its top-left corner at pixel (`x`, `y`) in `color`; the parts outside
    /// the frame are clipped.
    public func stamp(_ mask: CoverageMask, x: Int, y: Int, color: RGBAColor, on image: inout YCbCrImage) {
        guard color.alpha > 0, mask.width > 0, mask.height > 0 else { return }
        let layout = Layout(image)
        // The mask's rectangle, widened to whole chroma cells and clipped.
        let x0 = max(0, x) / layout.h * layout.h
        let y0 = max(0, y) / layout.v * layout.v
        let x1 = min(layout.limitX, (x + mask.width + layout.h - 1) / layout.h * layout.h)
        let y1 = min(layout.limitY, (y + mask.height + layout.v - 1) / layout.v * layout.v)
        guard x1 > x0, y1 > y0 else { return }
        let box = (x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        willChange?(y0..<y1, x0..<x1, &image)
        mask.values.withUnsafeBufferPointer { values in
            paint(box: box, layout: layout, color: color, on: &image) { row, line in
                let maskRow = box.y + row - y
                guard maskRow >= 0, maskRow < mask.height else { return (0, 0) }
                // Mask columns inside the box: [start, end) in box columns.
                let start = max(0, x - box.x)
                let end = min(box.width, x + mask.width - box.x)
                guard start < end else { return (0, 0) }
                let source = maskRow * mask.width + (box.x + start - x)
                for column in start..<end {
                    // v × 65536 / 255, exactly at 0 and 255, without a table lookup (so it vectorises).
                    let value = Int32(values[source + column - start])
                    line[column] = value &* 257 &+ (value >> 7)
                }
                return (start, end)
            }
        }
    }

    /// Draws `sprite` with its top-left corner at (`x`, `y`), which must be whole chroma cells of
    /// `image` (the sprite was built for its subsampling); the parts outside are clipped. One pass
    /// per plane: `new = (old × (256 − α) + value × α) / 256`. With `opacity` below 1 the sprite is
    /// faded first (markers under an uncertain heading).
    func draw(_ sprite: Sprite, x: Int, y: Int, on image: inout YCbCrImage, opacity: Double = 1) {
        let fade = Int32((max(0, min(1, opacity)) * 256).rounded())
        guard fade > 0 else { return }
        let layout = Layout(image)
        let hasChroma = layout.hasChroma && sprite.h == layout.h && sprite.v == layout.v
        let firstColumn = max(0, -x)
        let lastColumn = min(sprite.width, layout.limitX - x)
        let firstRow = max(0, -y)
        let lastRow = min(sprite.height, layout.limitY - y)
        guard firstColumn < lastColumn, firstRow < lastRow else { return }
        willChange?((y + firstRow)..<(y + lastRow), (x + firstColumn)..<(x + lastColumn), &image)
        let lumaStride = image.planes[0].stride
        image.planes[0].bytes.withUnsafeMutableBufferPointer { plane in
            sprite.lumaAlpha.withUnsafeBufferPointer { alpha in
                sprite.lumaValue.withUnsafeBufferPointer { value in
                    guard let planeBase = plane.baseAddress, let alphaBase = alpha.baseAddress,
                        let valueBase = value.baseAddress
                    else { return }
                    for row in firstRow..<lastRow {
                        let source = row * sprite.width + firstColumn
                        Self.composite(
                            planeBase + (y + row) * lumaStride + x + firstColumn, alpha: alphaBase + source,
                            value: valueBase + source, count: lastColumn - firstColumn, fade: fade)
                    }
                }
            }
        }
        guard hasChroma else { return }
        let (h, v) = (sprite.h, sprite.v)
        let cellColumns = (firstColumn / h)..<((lastColumn + h - 1) / h)
        let cellRows = (firstRow / v)..<((lastRow + v - 1) / v)
        let chromaStride = image.planes[1].stride
        for (index, values) in [(1, sprite.cbValue), (2, sprite.crValue)] {
            image.planes[index].bytes.withUnsafeMutableBufferPointer { plane in
                sprite.chromaAlpha.withUnsafeBufferPointer { alpha in
                    values.withUnsafeBufferPointer { value in
                        guard let planeBase = plane.baseAddress, let alphaBase = alpha.baseAddress,
                            let valueBase = value.baseAddress
                        else { return }
                        for row in cellRows {
                            let source = row * sprite.chromaWidth + cellColumns.lowerBound
                            Self.composite(
                                planeBase + (y / v + row) * chromaStride + x / h + cellColumns.lowerBound,
                                alpha: alphaBase + source, value: valueBase + source, count: cellColumns.count,
                                fade: fade)
                        }
                    }
                }
            }
        }
    }

    /// `samples[i] = value[i] + samples[i] × (255 − alpha[i]) / 255` (premultiplied "over"),
    /// rounded (the C kernel, which vectorises).
    @inline(__always)
    private static func composite(
        _ samples: UnsafeMutablePointer<UInt8>, alpha: UnsafePointer<UInt8>, value: UnsafePointer<UInt8>,
        count: Int, fade: Int32 = 256
    ) {
        if fade >= 256 {
            craster_composite(samples, alpha, value, Int32(count))
        } else {
            craster_composite_faded(samples, alpha, value, Int32(count), fade)
        }
    }

    // MARK: Packed YUYV

    /// Fills `shape` on a packed YUYV frame, exactly as on planar 4:2:2.
    ///
    /// The shape's box (widened to whole pixel pairs) is unpacked to planar rows, drawn by the
    /// same code as planar frames and packed back: YUYV is never converted to RGB, and only the
    /// bytes under the shape are touched.
    public func fill(_ shape: Shape, color: RGBAColor, on image: inout YUYVImage) {
        guard let bounds = shape.bounds else { return }
        let x0 = max(0, Int(bounds.min.x.rounded(.down)) - 1) / 2 * 2
        let y0 = max(0, Int(bounds.min.y.rounded(.down)) - 1)
        let x1 = min(image.width, (Int(bounds.max.x.rounded(.up)) + 2) / 2 * 2)
        let y1 = min(image.height, Int(bounds.max.y.rounded(.up)) + 1)
        guard x1 > x0, y1 > y0 else { return }
        var region = image.planar(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let offset = SIMD2(Double(x0), Double(y0))
        fill(Shape(contours: shape.contours.map { $0.map { $0 - offset } }), color: color, on: &region)
        image.store(region, x: x0, y: y0)
    }

    /// Stamps `mask` on a packed YUYV frame, exactly as on planar 4:2:2.
    public func stamp(_ mask: CoverageMask, x: Int, y: Int, color: RGBAColor, on image: inout YUYVImage) {
        let x0 = max(0, x) / 2 * 2
        let y0 = max(0, y)
        let x1 = min(image.width, (x + mask.width + 1) / 2 * 2)
        let y1 = min(image.height, y + mask.height)
        guard x1 > x0, y1 > y0 else { return }
        var region = image.planar(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        stamp(mask, x: x - x0, y: y - y0, color: color, on: &region)
        image.store(region, x: x0, y: y0)
    }

    /// Where a frame's planes end and how its chroma is sampled.
    private struct Layout {
        let h: Int
        let v: Int
        let limitX: Int
        let limitY: Int
        let hasChroma: Bool

        init(_ image: YCbCrImage) {
            hasChroma = image.planes.count == 3
            h = hasChroma ? image.subsampling.horizontalFactor : 1
            v = hasChroma ? image.subsampling.verticalFactor : 1
            // Whole chroma cells: the luma planes are allocated padded to them.
            limitX = hasChroma ? image.planes[1].width * h : image.width
            limitY = hasChroma ? image.planes[1].height * v : image.height
        }
    }

    /// Blends `color` over `box` (aligned to chroma cells), taking each row's coverage from
    /// `coverageOfRow`, which fills `line` (box columns, 0…65536) for the span it returns.
    private func paint(
        box: (x: Int, y: Int, width: Int, height: Int), layout: Layout, color: RGBAColor, on image: inout YCbCrImage,
        coverageOfRow: (Int, UnsafeMutablePointer<Int32>) -> (start: Int, end: Int)
    ) {
        let (h, v) = (layout.h, layout.v)
        if rows.count < (box.width + 2) * (v + 1) { rows = [Int32](repeating: 0, count: (box.width + 2) * (v + 1)) }
        let (y, cb, cr, opacity) = blendValues(color)
        rows.withUnsafeMutableBufferPointer { rowBuffer in
            PlanePointers.withPlanes(of: &image) { planes in
                guard let coverage = rowBuffer.baseAddress else { return }
                let (lumaBase, lumaStride, chromaStride) = (planes.luma, planes.lumaStride, planes.chromaStride)
                let cells = coverage + box.width * v
                if v == 1 {
                    // One C call per row for the blends and the chroma cells.
                    for row in 0..<box.height {
                        let span = coverageOfRow(row, coverage)
                        guard span.start < span.end else { continue }
                        let chromaOffset = (box.y + row) * chromaStride + box.x / h
                        craster_paint_row(
                            coverage, Int32(span.start), Int32(span.end), Int32(box.width),
                            lumaBase + (box.y + row) * lumaStride + box.x, planes.cb.map { $0 + chromaOffset },
                            planes.cr.map { $0 + chromaOffset }, Int32(h), y, cb, cr, opacity, cells)
                    }
                    return
                }
                var row = 0
                while row < box.height {
                    let count = min(v, box.height - row)
                    var cellStart = box.width
                    var cellEnd = 0
                    // Each sub-row's span: (start, end), empty as (0, 0).
                    var spans: (SIMD4<Int32>, SIMD4<Int32>) = (.zero, .zero)
                    for sub in 0..<count {
                        let line = coverage + sub * box.width
                        let span = coverageOfRow(row + sub, line)
                        guard span.start < span.end else { continue }
                        spans.0[sub] = Int32(span.start)
                        spans.1[sub] = Int32(span.end)
                        cellStart = min(cellStart, span.start)
                        cellEnd = max(cellEnd, span.end)
                        Self.blend(
                            lumaBase + (box.y + row + sub) * lumaStride + box.x + span.start,
                            coverage: line + span.start, count: span.end - span.start, value: y,
                            opacity: opacity, shift: 16)
                    }
                    if planes.cb != nil, cellStart < cellEnd {
                        // The chroma sums read whole cells over the rows' union: columns of
                        // it outside a row's own span must read as uncovered (only those
                        // are cleared, not the whole box row).
                        let from = cellStart / h * h
                        let to = min(box.width, (cellEnd + h - 1) / h * h)
                        for sub in 0..<count {
                            let line = coverage + sub * box.width
                            let (start, end) = (Int(spans.0[sub]), Int(spans.1[sub]))
                            if start < end {
                                for column in from..<max(from, start) { line[column] = 0 }
                                for column in min(to, end)..<to { line[column] = 0 }
                            } else {
                                for column in from..<to { line[column] = 0 }
                            }
                        }
                    }
                    if cellStart < cellEnd, let cbBase = planes.cb, let crBase = planes.cr {
                        let first = cellStart / h
                        let last = (cellEnd + h - 1) / h
                        Self.sumCells(
                            coverage, rowLength: box.width, rows: count, h: h, from: first, to: last,
                            into: cells)
                        // Cell sums reach 65536·h·v: divide by that inside the shift.
                        let shift = 16 + (h * v).trailingZeroBitCount
                        let offset = (box.y + row) / v * chromaStride + box.x / h + first
                        Self.blend(
                            cbBase + offset, coverage: cells + first, count: last - first, value: cb,
                            opacity: opacity, shift: shift)
                        Self.blend(
                            crBase + offset, coverage: cells + first, count: last - first, value: cr,
                            opacity: opacity, shift: shift)
                    }
                    row += v
                }
            }
        }
    }

    /// A colour as the kernels take it: Y, Cb and Cr rounded to whole levels (once per shape) and
    /// the opacity in 0…256.
    private func blendValues(_ color: RGBAColor) -> (y: Int32, cb: Int32, cr: Int32, opacity: Int32) {
        let (y, cb, cr) = color.ycbcr(in: sampleRange)
        return (Int32(y.rounded()), Int32(cb.rounded()), Int32(cr.rounded()), (Int32(color.alpha) * 256 + 127) / 255)
    }

    /// Rasterises `shape` into a mask of `width`×`height` (shape coordinates are the mask's), to
    /// stamp it many times.
    public func mask(of shape: Shape, width: Int, height: Int) -> CoverageMask {
        var values = [UInt8](repeating: 0, count: width * height)
        guard rasterizer.rasterize(shape, clipWidth: width, clipHeight: height) else {
            return CoverageMask(width: width, height: height, values: values)
        }
        let box = rasterizer.box
        var line = [Int32](repeating: 0, count: box.width + 2)
        line.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in 0..<box.height {
                let span = rasterizer.takeCoverage(row: row, into: base)
                for column in span.start..<span.end {
                    values[(box.y + row) * width + box.x + column] = UInt8((base[column] * 255 + 32768) >> 16)
                }
            }
        }
        return CoverageMask(width: width, height: height, values: values)
    }

    /// The sum of the luma coverages each chroma cell spans, for cells `first..<last`.
    @inline(__always)
    private static func sumCells(
        _ coverage: UnsafeMutablePointer<Int32>, rowLength: Int, rows: Int, h: Int, from first: Int, to last: Int,
        into cells: UnsafeMutablePointer<Int32>
    ) {
        craster_sum_cells(coverage, Int32(rowLength), Int32(rows), Int32(h), Int32(first), Int32(last), cells)
    }

    /// `samples[i] = (samples[i] × (256 − a) + value × a + 128) / 256` with
    /// `a = coverage[i] / 2^shift × opacity` in 0…256 (the C kernel, which vectorises).
    @inline(__always)
    private static func blend(
        _ samples: UnsafeMutablePointer<UInt8>, coverage: UnsafeMutablePointer<Int32>, count: Int, value: Int32,
        opacity: Int32, shift: Int
    ) {
        craster_blend(samples, coverage, Int32(count), value, opacity, Int32(shift))
    }
}
