import CRasterKernels
import Foundation

/// Exact anti-aliased coverage of a ``Shape``: for each pixel, the fraction of its area inside.
///
/// The signed-area accumulation method (as in font-rs and stb_truetype's v2 rasteriser), in fixed
/// point (1 = 65536) so the running sum costs one integer add per pixel: each
/// edge adds, to the pixels it crosses, the signed area between it and the pixel row's right
/// end; a running sum along each row then gives every pixel's coverage, interior pixels included,
/// in time proportional to the edges' length plus the box's area. Contours wound the other way
/// subtract, which makes holes.
///
/// The accumulation buffer is kept, reused and left cleared by reading, so drawing allocates
/// nothing once it has grown to the largest box drawn. Not thread-safe: one rasteriser per drawing
/// thread.
public final class CoverageRasterizer {
    /// Signed area contributions of the last shape, `box.width + 2` per row; a running sum along a
    /// row gives each pixel's coverage. ``takeCoverage(row:into:)`` reads a row and clears it, so
    /// the buffer is all zeros again when a shape has been consumed.
    ///
    /// Owned memory rather than arrays: drawing reaches it through pointers row after row, and a
    /// class's array properties would be checked for exclusive access on every row and edge.
    private var accumulation = OwnedBuffer()
    /// The pixel box the last shape was rasterised over.
    private(set) var box: (x: Int, y: Int, width: Int, height: Int) = (0, 0, 0, 0)
    /// Per row of the box, the first and one past the last column any edge touched: coverage is
    /// zero outside (the running sum is zero before the first and back to zero after the last).
    private var spanStart = OwnedBuffer()
    private var spanEnd = OwnedBuffer()

    /// Creates a rasteriser.
    public init() {}

    /// The frame rows `shape` spans when rasterised with these limits (aligned as ``rasterize``
    /// aligns them), or nil when nothing of it is inside.
    static func rows(
        of shape: Shape, clipWidth width: Int, clipHeight height: Int, alignY: Int = 1
    ) -> Range<Int>? {
        guard let bounds = shape.bounds, bounds.max.x > 0, bounds.max.y > 0, bounds.min.x < Double(width),
            bounds.min.y < Double(height)
        else { return nil }
        let y0 = max(0, Int(bounds.min.y.rounded(.down))) / alignY * alignY
        let y1 = min(height, (Int(bounds.max.y.rounded(.up)) + alignY - 1) / alignY * alignY)
        return y1 > y0 ? y0..<y1 : nil
    }

    /// Accumulates `shape` over its bounding box clipped to `width`×`height`, with the box's left
    /// and top edges moved down to multiples of `alignX` and `alignY` and its right and bottom
    /// edges up (within the limits), so chroma cells are whole. Returns false when nothing of the
    /// shape is inside.
    ///
    /// With `rows`, only those rows of the frame are rasterised (a band of a tall shape: edges are
    /// cut at the band's top and bottom exactly, and the buffer stays a band high).
    @discardableResult
    func rasterize(
        _ shape: Shape, clipWidth width: Int, clipHeight height: Int, alignX: Int = 1, alignY: Int = 1,
        rows band: Range<Int>? = nil
    ) -> Bool {
        guard let bounds = shape.bounds, bounds.max.x > 0, bounds.max.y > 0, bounds.min.x < Double(width),
            bounds.min.y < Double(height)
        else { return false }
        let x0 = max(0, Int(bounds.min.x.rounded(.down))) / alignX * alignX
        var y0 = max(0, Int(bounds.min.y.rounded(.down))) / alignY * alignY
        let x1 = min(width, (Int(bounds.max.x.rounded(.up)) + alignX - 1) / alignX * alignX)
        var y1 = min(height, (Int(bounds.max.y.rounded(.up)) + alignY - 1) / alignY * alignY)
        if let band {
            y0 = max(y0, band.lowerBound)
            y1 = min(y1, band.upperBound)
        }
        guard x1 > x0, y1 > y0 else { return false }
        box = (x0, y0, x1 - x0, y1 - y0)
        let rowLength = box.width + 2
        let needed = rowLength * box.height
        accumulation.reserve(needed)
        let rows = box.height
        spanStart.reserve(rows)
        spanEnd.reserve(rows)
        let (starts, ends) = (spanStart.base, spanEnd.base)
        for row in 0..<rows {
            starts[row] = Int32(rowLength)
            ends[row] = 0
        }
        let origin = SIMD2(Double(x0), Double(y0))
        let limit = Double(box.width)
        let buffer = accumulation.base
        for contour in shape.contours where contour.count >= 2 {
            var previous = contour[contour.count - 1] - origin
            for point in contour {
                let current = point - origin
                // Points left or right of the box keep their winding at its edge: clamping x
                // moves their area to column 0 (covering what lies right of it) or off the end.
                craster_accumulate_edge(
                    buffer, Int32(rowLength), Int32(rows), starts, ends, min(max(previous.x, 0), limit), previous.y,
                    min(max(current.x, 0), limit), current.y)
                previous = current
            }
        }
        return true
    }

    /// The frame columns that rows `rows` (of ``box``) of the last shape cover, widened to whole
    /// cells of `align` columns; nil when those rows cover nothing. Nothing outside them is drawn
    /// (each row's coverage is zero outside its span).
    func columns(ofRows rows: Range<Int>, align: Int) -> Range<Int>? {
        var (first, last) = (Int32.max, Int32.min)
        for row in rows {
            let (start, end) = (spanStart.base[row], min(Int32(box.width), spanEnd.base[row]))
            guard start < end else { continue }
            first = min(first, start)
            last = max(last, end)
        }
        guard first < last else { return nil }
        let x0 = (box.x + Int(first)) / align * align
        let x1 = min(box.x + box.width, (box.x + Int(last) + align - 1) / align * align)
        return x0..<x1
    }

    /// Reads the last shape's rows (see ``takeCoverage(row:into:)``) through pointers, for
    /// `body`'s duration: drawing a shape reads every row of it.
    func withRows<R>(_ body: (RowReader) -> R) -> R {
        body(RowReader(accumulation: accumulation.base, starts: spanStart.base, ends: spanEnd.base, width: box.width))
    }

    /// Row access to a rasterised shape; valid only inside ``withRows(_:)``.
    struct RowReader {
        let accumulation: UnsafeMutablePointer<Int32>
        let starts: UnsafeMutablePointer<Int32>
        let ends: UnsafeMutablePointer<Int32>
        let width: Int

        /// As ``CoverageRasterizer/takeCoverage(row:into:)``.
        @inline(__always)
        func take(row: Int, into target: UnsafeMutablePointer<Int32>) -> (start: Int, end: Int) {
            let rowLength = width + 2
            let start = Int(starts[row])
            let end = min(width, Int(ends[row]))
            guard start < end else {
                clearEmpty(row: row)
                return (0, 0)
            }
            // The C kernel: inside a shape most of a row has no edge, and runs of eight zero
            // contributions are filled at once, so a large fill costs little more than its edges.
            craster_take_coverage(
                accumulation + row * rowLength, target, Int32(start), Int32(end),
                Int32(min(rowLength, Int(ends[row]) + 1)))
            return (start, end)
        }

        /// Blends row `row` onto a frame row whose chroma has full vertical resolution and `h` 1
        /// or 2, straight from the accumulation (``craster_fill_row``: no coverage row is
        /// written), and clears the row as ``take(row:into:)`` does. `luma` points at the box's
        /// first column, `cb` and `cr` (nil on grey frames) at its first chroma cell.
        @inline(__always)
        func fill(
            row: Int, luma: UnsafeMutablePointer<UInt8>, cb: UnsafeMutablePointer<UInt8>?,
            cr: UnsafeMutablePointer<UInt8>?, h: Int, color: (y: Int32, cb: Int32, cr: Int32, opacity: Int32)
        ) {
            let start = Int(starts[row])
            let end = min(width, Int(ends[row]))
            guard start < end else { return clearEmpty(row: row) }
            let rowLength = width + 2
            craster_fill_row(
                accumulation + row * rowLength, Int32(start), Int32(end), Int32(min(rowLength, Int(ends[row]) + 1)),
                Int32(width), luma, cb, cr, Int32(h), color.y, color.cb, color.cr, color.opacity)
        }

        /// Blends rows `row` and `row + 1` (when `pair`; else `row` alone) onto two frame rows of
        /// a 4:2:0 frame and the chroma row they share, straight from the accumulation
        /// (``craster_fill_row_pair``), and clears them. `luma` points at the first row's first box
        /// column, `cb` and `cr` at the box's first chroma cell.
        @inline(__always)
        func fillPair(
            row: Int, pair: Bool, luma: UnsafeMutablePointer<UInt8>, lumaStride: Int, cb: UnsafeMutablePointer<UInt8>,
            cr: UnsafeMutablePointer<UInt8>, color: (y: Int32, cb: Int32, cr: Int32, opacity: Int32)
        ) {
            let rowLength = width + 2
            // The two rows' starts, ends and clear ends (a missing second row is empty: 0, 0, 0).
            var spans = SIMD8<Int32>.zero
            for sub in 0..<(pair ? 2 : 1) {
                spans[sub] = starts[row + sub]
                spans[2 + sub] = min(Int32(width), ends[row + sub])
                spans[4 + sub] = min(Int32(rowLength), ends[row + sub] + 1)
            }
            withUnsafeBytes(of: spans) { raw in
                guard let bounds = raw.baseAddress?.assumingMemoryBound(to: Int32.self) else { return }
                craster_fill_row_pair(
                    accumulation + row * rowLength, Int32(rowLength), bounds, bounds + 2, bounds + 4, Int32(width),
                    luma, Int32(lumaStride), cb, cr, color.y, color.cb, color.cr, color.opacity)
            }
        }

        /// Clears a row with no coverage in the box. Edges right of the box leave their area past
        /// its last column: cleared too, or the next shape (with another row length) would find it
        /// inside its own rows.
        private func clearEmpty(row: Int) {
            let rowLength = width + 2
            let (start, stop) = (Int(starts[row]), min(rowLength, Int(ends[row]) + 1))
            if start < stop {
                for column in start..<stop { accumulation[row * rowLength + column] = 0 }
            }
        }
    }

    /// Writes row `row`'s coverage as fractions of 65536 (0…65536) into `target` for the columns
    /// of its span, clears that row of the accumulation buffer, and returns the span (start, end)
    /// in box columns; the caller treats columns outside it as uncovered.
    ///
    /// Integer coverage keeps the running sum at one cycle per pixel; 1/65536 is far below what an
    /// 8-bit sample can show.
    @discardableResult
    func takeCoverage(row: Int, into target: UnsafeMutablePointer<Int32>) -> (start: Int, end: Int) {
        withRows { $0.take(row: row, into: target) }
    }

    /// Every pixel's coverage over ``box``, row by row, as 0…1 (for tests; drawing reads rows).
    func coverage() -> [Float] {
        var row = [Int32](repeating: 0, count: box.width + 2)
        var result = [Float](repeating: 0, count: box.width * box.height)
        row.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in 0..<box.height {
                let span = takeCoverage(row: y, into: base)
                for x in span.start..<span.end { result[y * box.width + x] = Float(base[x]) / 65536 }
            }
        }
        return result
    }
}
