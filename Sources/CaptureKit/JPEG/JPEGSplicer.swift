internal import CLibJPEG
import Glibc

/// Annotates a JPEG frame that has restart markers by re-encoding only the restart intervals the
/// overlay draws on, and copying every other interval's bytes unchanged.
///
/// A frame goes through three calls: ``begin(_:canvas:)`` reads its structure and sizes the
/// canvas; ``prepare(rows:in:)``, called by whatever draws before it changes rows, decodes the
/// intervals covering them into the canvas (once each); ``finish(_:)`` encodes those intervals
/// from the canvas (not changed; taken `inout` so that it is not copied), walks every other
/// interval's Huffman codes (so that an interval copied unchanged is known whole; libjpeg-turbo
/// checked those it decoded), and encodes the touched ones with the frame's own quantisation and Huffman tables (the standard tables when
/// it has none; they are then written into the output, so every viewer opens it) and splices
/// them in, RSTn renumbered. Rows no interval of which was prepared hold stale samples and must
/// not be read.
///
/// Intervals are decoded and encoded as small JPEGs whose one MCU row is an interval's MCUs in
/// order, several at a time with restart markers between them: each block is then transformed
/// exactly as in the whole frame (the same samples, edges repeated as libjpeg-turbo repeats them),
/// so the samples of a spliced interval equal those of the whole frame encoded with the same
/// tables. Not thread-safe: one splicer per drawing thread.
public final class JPEGSplicer {
    private let decoder: JPEGDecoder
    private var frame: [UInt8] = []
    private var scan: JPEGRestartScan?
    private var decoded: [Bool] = []
    /// The intervals being decoded or encoded, as one small image (reused).
    private var strip = YCbCrImage(width: 8, height: 8, subsampling: .gray)
    /// The Huffman walk's tables: DC 0-3, then AC 0-3.
    private let walkTables = UnsafeMutablePointer<arcj_walk_table>.allocate(capacity: 8)
    private let compressor = LibJPEGCompressor()

    /// Why the last frame given to ``begin(_:canvas:)`` is not spliced (nil when it is), or why
    /// ``finish(_:)`` found an interval it would copy damaged: decode that frame the full way.
    public private(set) var refusal: String?
    /// Set when a touched interval would not decode: draw the frame the full way instead.
    public private(set) var failure: JPEGError?

    /// Creates a splicer.
    ///
    /// - Throws: ``JPEGError/handleUnavailable`` when libjpeg-turbo cannot allocate a handle.
    public init() throws(JPEGError) {
        decoder = try JPEGDecoder()
    }

    deinit {
        walkTables.deallocate()
    }

    /// MCU height of the frame begun last (pixels): the touched region's granularity.
    public var mcuHeight: Int { scan?.mcuHeight ?? 0 }

    /// How many restart intervals the frame begun last has.
    public var intervalCount: Int { decoded.count }

    /// The restart intervals of the frame begun last that were decoded, and so are re-encoded.
    public var touchedIntervals: [Int] { decoded.indices.filter { decoded[$0] } }

    /// The MCU rows of the frame begun last that a touched interval covers (some of).
    public var touchedMCURows: [Int] {
        guard let scan else { return [] }
        var rows = Set<Int>()
        for index in touchedIntervals {
            let mcus = scan.mcus(ofInterval: index)
            rows.formUnion((mcus.lowerBound / scan.mcusPerRow)...((mcus.upperBound - 1) / scan.mcusPerRow))
        }
        return rows.sorted()
    }

    /// Starts a frame.
    ///
    /// - Parameters:
    ///   - jpeg: the frame.
    ///   - canvas: made the frame's size and layout (its samples are not decoded yet).
    /// - Returns: false when the frame cannot be spliced (``refusal`` says why): it has no restart
    ///   markers, restart markers missing or out of order, or is coded in a way this does not splice.
    public func begin(_ jpeg: [UInt8], canvas: inout YCbCrImage) -> Bool {
        scan = nil
        failure = nil
        decoded = []
        guard let read = jpeg.withUnsafeBytes({ JPEGRestartScan($0) }) else {
            refusal = "no restart markers, or not a baseline frame they can be used in"
            return false
        }
        guard prepareWalk(read) else {
            refusal = "a Huffman table is not a code"
            return false
        }
        frame = jpeg
        scan = read
        refusal = nil
        decoded = Array(repeating: false, count: read.intervals.count)
        if canvas.width != read.width || canvas.height != read.height || canvas.subsampling != read.subsampling {
            canvas = YCbCrImage(width: read.width, height: read.height, subsampling: read.subsampling)
        }
        return true
    }

    /// Decodes into `canvas` the intervals covering pixel rows `rows` that are not decoded yet.
    public func prepare(rows: Range<Int>, in canvas: inout YCbCrImage) {
        guard let scan, failure == nil, !rows.isEmpty else { return }
        let firstRow = max(0, rows.lowerBound) / scan.mcuHeight
        let lastRow = min(scan.mcuRows - 1, (rows.upperBound - 1) / scan.mcuHeight)
        guard firstRow <= lastRow else { return }
        let first = firstRow * scan.mcusPerRow / scan.restartInterval
        let last = ((lastRow + 1) * scan.mcusPerRow - 1) / scan.restartInterval
        let wanted = (first...last).filter { !decoded[$0] }
        guard !wanted.isEmpty else { return }
        for group in groups(of: wanted, scan) {
            do throws(JPEGError) {
                try decode(group, scan, into: &canvas)
            } catch {
                failure = error
                return
            }
        }
        for index in wanted { decoded[index] = true }
    }

    /// The spliced frame: the touched intervals encoded from `canvas`, the others copied.
    ///
    /// - Throws: ``JPEGError/encodingFailed(_:)``, or the ``failure`` a touched interval gave.
    public func finish(_ canvas: inout YCbCrImage) throws(JPEGError) -> [UInt8] {
        guard let scan else { throw .encodingFailed("no frame begun") }
        if let failure { throw failure }
        // The intervals copied must be whole (those decoded were checked by libjpeg-turbo): walked
        // here rather than at the start, so that an interval is read once, by one of the two.
        if let problem = walk(frame, scan) {
            refusal = problem
            throw .corrupt(problem)
        }
        var encoded: [Int: ArraySlice<UInt8>] = [:]
        for group in groups(of: touchedIntervals, scan) {
            let pieces = try encode(group, scan, from: &canvas)
            for (index, piece) in zip(group, pieces) { encoded[index] = piece }
        }
        var out: [UInt8] = []
        out.reserveCapacity(frame.count + 1024)
        out.append(contentsOf: frame[..<scan.scanHeader.lowerBound])
        if !scan.hasHuffmanTables, let tables = JPEGStructure.standardHuffmanTables { out.append(contentsOf: tables) }
        out.append(contentsOf: frame[scan.scanHeader])
        for index in scan.intervals.indices {
            if index > 0 { out.append(contentsOf: [0xFF, 0xD0 + UInt8((index - 1) % 8)]) }
            if let piece = encoded[index] {
                out.append(contentsOf: piece)
            } else {
                out.append(contentsOf: frame[scan.intervals[index]])
            }
        }
        out.append(contentsOf: [0xFF, 0xD9])
        return out
    }

    /// Intervals in groups that share a length (all but possibly the last interval of the frame),
    /// each small enough to be one small JPEG: a group is as many MCU rows high as it has
    /// intervals, and a frame header holds at most 65,535 (a 1080p frame with a restart marker
    /// every MCU has 16,200 intervals).
    private func groups(of indices: [Int], _ scan: JPEGRestartScan) -> [[Int]] {
        let short = indices.filter { scan.mcus(ofInterval: $0).count != scan.restartInterval }
        let whole = indices.filter { scan.mcus(ofInterval: $0).count == scan.restartInterval }
        let most = max(1, min(4096, 65_535 / scan.mcuHeight))
        return [whole, short].filter { !$0.isEmpty }.flatMap { group in
            stride(from: 0, to: group.count, by: most).map { Array(group[$0..<min($0 + most, group.count)]) }
        }
    }

    /// Prepares the Huffman walk's tables; false when one is not a code.
    private func prepareWalk(_ scan: JPEGRestartScan) -> Bool {
        for (slot, table) in (scan.dcTables + scan.acTables).enumerated() {
            guard let table else { continue }
            var source = Self.huffman(table)
            guard arcj_walk_table_init(walkTables + slot, &source) == 0 else { return false }
        }
        return true
    }

    /// Walks the Huffman codes of every interval not decoded; a description of the first that
    /// does not hold.
    private func walk(_ jpeg: [UInt8], _ scan: JPEGRestartScan) -> String? {
        var dc: [UnsafePointer<arcj_walk_table>?] = []
        var ac: [UnsafePointer<arcj_walk_table>?] = []
        for component in scan.components {
            let blocks = scan.components.count == 1 ? 1 : component.h * component.v
            dc += Array(repeating: UnsafePointer(walkTables + component.dcTable), count: blocks)
            ac += Array(repeating: UnsafePointer(walkTables + 4 + component.acTable), count: blocks)
        }
        return jpeg.withUnsafeBytes { bytes -> String? in
            guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return "no data" }
            for (index, range) in scan.intervals.enumerated() where !decoded[index] {
                let status = arcj_walk_interval(
                    base + range.lowerBound, range.count, Int32(scan.mcus(ofInterval: index).count), Int32(dc.count),
                    dc, ac)
                switch status {
                case 0: continue
                case 1: return "restart interval \(index): a code no Huffman table has"
                case 2: return "restart interval \(index) is cut short"
                default: return "restart interval \(index) has bytes after its last MCU"
                }
            }
            return nil
        }
    }

    /// Decodes `group` (intervals of one length) as one small JPEG and copies each into `canvas`.
    private func decode(_ group: [Int], _ scan: JPEGRestartScan, into canvas: inout YCbCrImage) throws(JPEGError) {
        let length = scan.mcus(ofInterval: group[0]).count
        var small: [UInt8] = [0xFF, 0xD8]
        small.reserveCapacity(group.reduce(1024) { $0 + scan.intervals[$1].count + 2 })
        for segment in scan.tableSegments { small.append(contentsOf: frame[segment]) }
        if !scan.hasHuffmanTables, let tables = JPEGStructure.standardHuffmanTables {
            small.append(contentsOf: tables)
        }
        var header = Array(frame[scan.frameHeader])
        let (width, height) = (length * scan.mcuWidth, group.count * scan.mcuHeight)
        header[5] = UInt8(height >> 8)
        header[6] = UInt8(height & 0xFF)
        header[7] = UInt8(width >> 8)
        header[8] = UInt8(width & 0xFF)
        small.append(contentsOf: header)
        if group.count > 1 { small.append(contentsOf: [0xFF, 0xDD, 0, 4, UInt8(length >> 8), UInt8(length & 0xFF)]) }
        small.append(contentsOf: frame[scan.scanHeader])
        for (row, index) in group.enumerated() {
            if row > 0 { small.append(contentsOf: [0xFF, 0xD0 + UInt8((row - 1) % 8)]) }
            small.append(contentsOf: frame[scan.intervals[index]])
        }
        small.append(contentsOf: [0xFF, 0xD9])
        let result = small.withUnsafeBytes { bytes in
            Result { () throws(JPEGError) in try decoder.decode(bytes, into: &strip) }
        }
        try result.get()
        copy(group, scan, canvas: &canvas, toCanvas: true)
    }

    /// Encodes `group` from `canvas` as one small JPEG; each interval's entropy-coded data.
    private func encode(_ group: [Int], _ scan: JPEGRestartScan, from canvas: inout YCbCrImage) throws(JPEGError)
        -> [ArraySlice<UInt8>]
    {
        let length = scan.mcus(ofInterval: group[0]).count
        let (width, height) = (length * scan.mcuWidth, group.count * scan.mcuHeight)
        if strip.width != width || strip.height != height || strip.subsampling != scan.subsampling {
            strip = YCbCrImage(width: width, height: height, subsampling: scan.subsampling)
        }
        copy(group, scan, canvas: &canvas, toCanvas: false)
        var settings = Self.settings(scan, width: width, height: height)
        // A restart interval per row of the strip (DRI even for one), so that the output is read
        // as the frames are.
        settings.restart_interval = Int32(length)
        let bytes = try compressor.compress(
            strip, settings: settings, sizes: strip.planes.map { ($0.stride, $0.allocatedRows) })
        guard let written = bytes.withUnsafeBytes({ JPEGRestartScan($0) }), written.intervals.count == group.count
        else {
            throw .encodingFailed("libjpeg's output does not hold \(group.count) restart intervals")
        }
        return written.intervals.map { bytes[$0] }
    }

    /// Copies each interval of `group` between the canvas (MCUs where the frame has them) and the
    /// strip (one interval a row): into the canvas up to its planes' edges, out of it with the
    /// last column and row repeated past them.
    private func copy(_ group: [Int], _ scan: JPEGRestartScan, canvas: inout YCbCrImage, toCanvas: Bool) {
        let gray = scan.components.count == 1
        // The planes' samples as libjpeg-turbo reads and writes them.
        let sizes = YCbCrImage.codedPlaneSizes(width: scan.width, height: scan.height, subsampling: scan.subsampling)
        for (planeIndex, component) in scan.components.enumerated() {
            let (h, v) = gray ? (1, 1) : (component.h, component.v)
            let (blockWidth, blockHeight) = (h * 8, v * 8)
            let (planeWidth, planeHeight) = sizes[planeIndex]
            let canvasStride = canvas.planes[planeIndex].stride
            let stripStride = strip.planes[planeIndex].stride
            canvas.planes[planeIndex].bytes.withUnsafeMutableBufferPointer { canvasPlane in
                strip.planes[planeIndex].bytes.withUnsafeMutableBufferPointer { stripPlane in
                    guard let canvasBase = canvasPlane.baseAddress, let stripBase = stripPlane.baseAddress else {
                        return
                    }
                    for (row, index) in group.enumerated() {
                        let mcus = scan.mcus(ofInterval: index)
                        var mcu = mcus.lowerBound
                        while mcu < mcus.upperBound {
                            let (mcuRow, column) = (mcu / scan.mcusPerRow, mcu % scan.mcusPerRow)
                            let run = min(mcus.upperBound - mcu, scan.mcusPerRow - column)
                            let x = column * blockWidth
                            let stripX = (mcu - mcus.lowerBound) * blockWidth
                            let count = run * blockWidth
                            let inside = min(count, planeWidth - x)
                            for line in 0..<blockHeight {
                                let stripRow = stripBase + (row * blockHeight + line) * stripStride + stripX
                                let y = mcuRow * blockHeight + line
                                if toCanvas {
                                    guard y < planeHeight else { break }
                                    memcpy(canvasBase + y * canvasStride + x, stripRow, inside)
                                } else {
                                    let source = canvasBase + min(y, planeHeight - 1) * canvasStride
                                    memcpy(stripRow, source + x, inside)
                                    if inside < count {
                                        memset(stripRow + inside, Int32(source[planeWidth - 1]), count - inside)
                                    }
                                }
                            }
                            mcu += run
                        }
                    }
                }
            }
        }
    }

    /// The encoder's settings for `scan`'s components and tables, at a size.
    private static func settings(_ scan: JPEGRestartScan, width: Int, height: Int) -> arcj_compress_settings {
        var settings = arcj_compress_settings()
        settings.width = Int32(width)
        settings.height = Int32(height)
        settings.components = Int32(scan.components.count)
        func each(_ value: (JPEGRestartScan.Component) -> Int) -> (Int32, Int32, Int32) {
            let values = (0..<3).map { $0 < scan.components.count ? Int32(value(scan.components[$0])) : 0 }
            return (values[0], values[1], values[2])
        }
        settings.component_id = each { Int($0.id) }
        settings.h = each(\.h)
        settings.v = each(\.v)
        settings.quant_index = each(\.quantTable)
        settings.dc_index = each(\.dcTable)
        settings.ac_index = each(\.acTable)
        settings.use_quant_tables = 1
        withUnsafeMutableBytes(of: &settings.quant_present) { present in
            withUnsafeMutableBytes(of: &settings.quant) { quant in
                for (t, table) in scan.quantTables.enumerated() {
                    guard let table else { continue }
                    present.storeBytes(of: Int32(1), toByteOffset: 4 * t, as: Int32.self)
                    for (k, value) in table.enumerated() {
                        quant.storeBytes(of: value, toByteOffset: (t * 64 + k) * 2, as: UInt16.self)
                    }
                }
            }
        }
        // The tables in effect: the frame's, or the standard ones it was coded with.
        settings.use_huffman_tables = 1
        func tables(_ tables: [JPEGRestartScan.HuffmanTable?]) -> (
            arcj_huffman_table, arcj_huffman_table, arcj_huffman_table, arcj_huffman_table
        ) {
            let converted = tables.map { $0.map(huffman) ?? arcj_huffman_table() }
            return (converted[0], converted[1], converted[2], converted[3])
        }
        settings.dc = tables(scan.dcTables)
        settings.ac = tables(scan.acTables)
        return settings
    }

    /// A table in the C library's form.
    private static func huffman(_ table: JPEGRestartScan.HuffmanTable) -> arcj_huffman_table {
        var result = arcj_huffman_table()
        result.present = 1
        withUnsafeMutableBytes(of: &result.bits) { bits in
            for (i, count) in table.bits.enumerated() { bits[i] = count }
        }
        withUnsafeMutableBytes(of: &result.values) { values in
            for (i, value) in table.values.enumerated() { values[i] = value }
        }
        return result
    }
}
