import ArcaptureCore
internal import CLibJPEG
import Glibc

/// Annotates a baseline JPEG frame by coding again only the MCUs the overlay draws on: every other
/// MCU keeps the camera's bits, and every restart interval the overlay does not touch its bytes (a
/// frame without restart markers is one interval).
///
/// A frame goes through these calls: ``begin(_:canvas:)`` reads its structure and sizes the
/// canvas; ``mark(rows:columns:)`` notes a region a drawing will change, and
/// ``prepareMarked(in:)`` decodes the MCUs marked into the canvas, all at once (so an overlay is
/// best drawn twice: once to mark what it touches, then on the decoded samples);
/// ``prepare(rows:columns:in:)`` does both for one region; ``finish(_:)`` encodes the MCUs decoded
/// from the canvas (not changed; taken `inout` so that it is not copied) with the frame's own
/// quantisation and Huffman tables (the standard tables when it has none; they are then written
/// into the output, so every viewer opens it), writes each touched interval again from the
/// camera's MCUs and those, and copies every other interval, RSTn renumbered. The samples of MCUs
/// not decoded are stale and must not be read.
///
/// An interval is written again at the level of its Huffman codes: the interval is indexed (where
/// each MCU's codes start, and the DC values that predict across MCUs), and its MCUs are copied
/// bit for bit from the camera's interval or from the ones encoded again, with only the DC
/// difference at the start of each run coded again. The MCUs decoded or encoded are gathered into
/// one small JPEG, one MCU row long: each block is then transformed exactly as in the whole frame
/// (the same samples, edges repeated as libjpeg-turbo repeats them), so a spliced MCU's samples
/// equal those of the whole frame encoded with the same tables, and the others are the camera's.
/// Not thread-safe: one splicer per drawing thread.
public final class JPEGSplicer {
    /// A run of MCUs in one MCU row and one interval.
    private struct Run {
        var first: Int
        var count: Int
        var interval: Int
    }

    private let decoder: JPEGDecoder
    private var frame: [UInt8] = []
    private var scan: JPEGRestartScan?
    private let tables = JPEGBlockTables()
    /// Per MCU, in raster order: marked as drawn on.
    private var marked: [Bool] = []
    /// Per MCU: decoded into the canvas, so encoded again.
    private var decoded: [Bool] = []
    /// Per interval: indexed into `frameData`, at its own offsets.
    private var indexed: [Bool] = []
    /// Per interval: decoded whole (most of it was marked), and so encoded whole.
    private var whole: [Bool] = []
    private let frameData = IndexedScanData()
    /// The MCUs encoded again, one per small JPEG.
    private var stripData: [IndexedScanData] = []
    /// The MCUs being decoded or encoded, as one small image one MCU row high (reused; wider than
    /// the MCUs in it when fewer than before).
    private var strip = YCbCrImage(width: 8, height: 8, subsampling: .gray)
    private let compressor = LibJPEGCompressor()
    /// `arcj_assemble`'s output (malloc'ed, grown, reused).
    private var assembled: UnsafeMutablePointer<UInt8>?
    private var assembledCapacity = 0

    /// Why the last frame given to ``begin(_:canvas:)`` is not spliced (nil when it is), or why an
    /// interval it would copy or write again was found damaged: decode that frame the full way.
    public private(set) var refusal: String?
    /// Set when the MCUs drawn on would not decode: draw the frame the full way instead.
    public private(set) var failure: JPEGError?

    /// Creates a splicer.
    ///
    /// - Throws: ``JPEGError/handleUnavailable`` when libjpeg-turbo cannot allocate a handle.
    public init() throws(JPEGError) {
        decoder = try JPEGDecoder()
    }

    deinit {
        free(assembled)
    }

    /// MCU width of the frame begun last (pixels).
    public var mcuWidth: Int { scan?.mcuWidth ?? 0 }

    /// MCU height of the frame begun last (pixels).
    public var mcuHeight: Int { scan?.mcuHeight ?? 0 }

    /// MCUs in each row of the frame begun last.
    public var mcusPerRow: Int { scan?.mcusPerRow ?? 0 }

    /// How many restart intervals the frame begun last has.
    public var intervalCount: Int { indexed.count }

    /// The MCUs of the frame begun last that were decoded, and so are encoded again (raster order).
    public var touchedMCUs: [Int] { decoded.indices.filter { decoded[$0] } }

    /// The restart intervals of the frame begun last that hold a touched MCU.
    public var touchedIntervals: [Int] {
        guard let scan else { return [] }
        return Array(Set(touchedMCUs.map { $0 / scan.restartInterval })).sorted()
    }

    /// The MCU rows of the frame begun last that hold a touched MCU.
    public var touchedMCURows: [Int] {
        guard let scan else { return [] }
        return Array(Set(touchedMCUs.map { $0 / scan.mcusPerRow })).sorted()
    }

    /// Starts a frame.
    ///
    /// - Parameters:
    ///   - jpeg: the frame.
    ///   - canvas: made the frame's size and layout (its samples are not decoded yet).
    /// - Returns: false when the frame cannot be spliced (``refusal`` says why): restart markers
    ///   missing or out of order, or coded in a way this does not splice (progressive, arithmetic,
    ///   12-bit, optimised tables that lack codes a drawn block may need).
    public func begin(_ jpeg: [UInt8], canvas: inout YCbCrImage) -> Bool {
        scan = nil
        failure = nil
        indexed = []
        whole = []
        marked = []
        decoded = []
        let result = jpeg.withUnsafeBytes { bytes in
            Result { () throws(JPEGRestartScan.Refusal) in try JPEGRestartScan(reading: bytes) }
        }
        let read: JPEGRestartScan
        switch result {
        case .success(let scan): read = scan
        case .failure(let why):
            refusal = why.reason
            return false
        }
        if let problem = tables.prepare(read) {
            refusal = problem
            return false
        }
        frame = jpeg
        scan = read
        refusal = nil
        let mcus = read.mcusPerRow * read.mcuRows
        indexed = Array(repeating: false, count: read.intervals.count)
        whole = indexed
        marked = Array(repeating: false, count: mcus)
        decoded = marked
        frameData.reserve(bytes: jpeg.count + 16 * (read.intervals.count + 1), entries: mcus + read.intervals.count)
        if canvas.width != read.width || canvas.height != read.height || canvas.subsampling != read.subsampling {
            canvas = YCbCrImage(width: read.width, height: read.height, subsampling: read.subsampling)
        }
        return true
    }

    /// Notes that a drawing will change pixel rows `rows` in columns `columns`: their MCUs are
    /// decoded by the next ``prepareMarked(in:)``.
    public func mark(rows: Range<Int>, columns: Range<Int>) {
        guard let scan else { return }
        for mcu in mcus(rows: rows, columns: columns, scan) { marked[mcu] = true }
    }

    /// The MCUs (raster indices) holding pixels in `rows` x `columns`, in order.
    private func mcus(rows: Range<Int>, columns: Range<Int>, _ scan: JPEGRestartScan) -> [Int] {
        let rows = rows.clamped(to: 0..<scan.height)
        let columns = columns.clamped(to: 0..<scan.width)
        guard !rows.isEmpty, !columns.isEmpty else { return [] }
        let firstColumn = columns.lowerBound / scan.mcuWidth
        let lastColumn = (columns.upperBound - 1) / scan.mcuWidth
        return ((rows.lowerBound / scan.mcuHeight)...((rows.upperBound - 1) / scan.mcuHeight)).flatMap { row in
            (firstColumn...lastColumn).map { row * scan.mcusPerRow + $0 }
        }
    }

    /// Decodes into `canvas` every MCU marked and not decoded yet.
    ///
    /// An interval at least half of which is marked, and none of it decoded yet, is decoded (and
    /// encoded) whole, as libjpeg-turbo reads it: coding its MCUs run by run costs more than the
    /// few it leaves alone save (indexing an interval and writing it again cost about a quarter
    /// of decoding and encoding it; each run's MCUs a third more than in a whole decode).
    public func prepareMarked(in canvas: inout YCbCrImage) {
        guard let scan, failure == nil, refusal == nil else { return }
        let pending = runs(scan) { marked[$0] && !decoded[$0] }
        guard !pending.isEmpty else { return }
        var wholly: [Int] = []
        var partly: [Run] = []
        // The runs of one interval are together (raster order): each interval is looked at once,
        // which matters when it is the whole frame (no restart markers).
        var first = 0
        while first < pending.count {
            let interval = pending[first].interval
            var end = first + 1
            while end < pending.count && pending[end].interval == interval { end += 1 }
            let mcus = scan.mcus(ofInterval: interval)
            if !indexed[interval], !mcus.contains(where: { decoded[$0] }),
                mcus.count(where: { marked[$0] }) * 2 >= mcus.count
            {
                // A frame without restart markers is one interval, too long to decode as one small
                // JPEG (a row of MCUs): drawn over half of it, it is decoded whole the full way.
                guard scan.hasRestartMarkers else {
                    refusal = "no restart markers, and over half of the frame drawn on"
                    return
                }
                wholly.append(interval)
            } else {
                partly.append(contentsOf: pending[first..<end])
            }
            first = end
        }
        for group in groups(of: wholly, scan) {
            do throws(JPEGError) {
                try decodeWhole(group, scan, into: &canvas)
            } catch {
                failure = error
                return
            }
            for interval in group {
                whole[interval] = true
                for mcu in scan.mcus(ofInterval: interval) { decoded[mcu] = true }
            }
        }
        for run in partly where !index(run.interval, scan) { return }
        for group in strips(of: partly, scan) {
            do throws(JPEGError) {
                try decode(group, scan, into: &canvas)
            } catch {
                failure = error
                return
            }
            for run in group {
                for mcu in run.first..<(run.first + run.count) { decoded[mcu] = true }
            }
        }
    }

    /// Marks pixel rows `rows` in columns `columns` and decodes their MCUs into `canvas`.
    public func prepare(rows: Range<Int>, columns: Range<Int>, in canvas: inout YCbCrImage) {
        guard let scan else { return }
        // Most calls (a drawing done twice) find their MCUs decoded: no pass over the frame then.
        var pending = false
        for mcu in mcus(rows: rows, columns: columns, scan) where !decoded[mcu] {
            marked[mcu] = true
            pending = true
        }
        if pending { prepareMarked(in: &canvas) }
    }

    /// Marks whole pixel rows `rows` and decodes them into `canvas`.
    public func prepare(rows: Range<Int>, in canvas: inout YCbCrImage) {
        prepare(rows: rows, columns: 0..<(scan?.width ?? 0), in: &canvas)
    }

    /// The spliced frame: the MCUs decoded encoded again from `canvas`, the others copied.
    ///
    /// - Throws: ``JPEGError/encodingFailed(_:)``, ``JPEGError/corrupt(_:)`` with ``refusal`` set
    ///   when an interval is damaged, or the ``failure`` the MCUs drawn on gave.
    public func finish(_ canvas: inout YCbCrImage) throws(JPEGError) -> [UInt8] {
        guard let scan else { throw .encodingFailed("no frame begun") }
        if let failure { throw failure }
        if let refusal { throw .corrupt(refusal) }
        // The intervals copied must be whole (those written again were indexed, or decoded by
        // libjpeg-turbo): checked here rather than at the start, so that an interval is read once.
        if let problem = walk(scan) {
            refusal = problem
            throw .corrupt(problem)
        }
        let touched = runs(scan) { decoded[$0] && !whole[$0 / scan.restartInterval] }
        // Where each run's MCUs are in the MCUs encoded again: (small JPEG, first MCU in it).
        var placed: [(strip: Int, offset: Int)] = []
        placed.reserveCapacity(touched.count)
        let strips = strips(of: touched, scan)
        while stripData.count < strips.count { stripData.append(IndexedScanData()) }
        for (stripIndex, group) in strips.enumerated() {
            try encode(group, scan, from: &canvas, into: stripData[stripIndex])
            var offset = 0
            for run in group {
                placed.append((stripIndex, offset))
                offset += run.count
            }
        }
        var encodedWhole: [Int: ArraySlice<UInt8>] = [:]
        for group in groups(of: whole.indices.filter { whole[$0] }, scan) {
            for (index, piece) in zip(group, try encodeWhole(group, scan, from: &canvas)) {
                encodedWhole[index] = piece
            }
        }
        // Each other touched interval written again from the camera's MCUs and those encoded again:
        // its own indexed data is source 0, the strips encoded again sources 1...
        let stripSources = strips.enumerated().map { stripIndex, group in
            stripData[stripIndex].source(bitsOffset: 0, entriesOffset: 0, mcus: group.reduce(0) { $0 + $1.count })
        }
        var rewritten: [Int: Range<Int>] = [:]
        var size = 0
        var next = 0
        while next < touched.count {
            let interval = touched[next].interval
            let mcus = scan.mcus(ofInterval: interval)
            let sources = [frameSource(interval, scan)] + stripSources
            var pieces: [arcj_piece] = []
            var cursor = mcus.lowerBound
            while next < touched.count, touched[next].interval == interval {
                let run = touched[next]
                if run.first > cursor {
                    pieces.append(
                        arcj_piece(source: 0, first: Int32(cursor - mcus.lowerBound), count: Int32(run.first - cursor)))
                }
                pieces.append(
                    arcj_piece(
                        source: Int32(1 + placed[next].strip), first: Int32(placed[next].offset),
                        count: Int32(run.count)))
                cursor = run.first + run.count
                next += 1
            }
            if cursor < mcus.upperBound {
                pieces.append(
                    arcj_piece(
                        source: 0, first: Int32(cursor - mcus.lowerBound), count: Int32(mcus.upperBound - cursor)))
            }
            let start = size
            try assemble(sources, pieces, scan, size: &size)
            rewritten[interval] = start..<size
        }
        var out: [UInt8] = []
        out.reserveCapacity(frame.count + 1024)
        out.append(contentsOf: frame[..<scan.scanHeader.lowerBound])
        if !scan.hasHuffmanTables, let tables = JPEGStructure.standardHuffmanTables { out.append(contentsOf: tables) }
        out.append(contentsOf: frame[scan.scanHeader])
        for index in scan.intervals.indices {
            if index > 0 { out.append(contentsOf: [0xFF, 0xD0 + UInt8((index - 1) % 8)]) }
            if let piece = encodedWhole[index] {
                out.append(contentsOf: piece)
            } else if let range = rewritten[index], let assembled {
                out.append(contentsOf: UnsafeBufferPointer(start: assembled + range.lowerBound, count: range.count))
            } else {
                out.append(contentsOf: frame[scan.intervals[index]])
            }
        }
        out.append(contentsOf: [0xFF, 0xD9])
        return out
    }

    /// The MCUs `include` takes, in raster order, as runs within one MCU row and one interval.
    private func runs(_ scan: JPEGRestartScan, _ include: (Int) -> Bool) -> [Run] {
        var result: [Run] = []
        let total = scan.mcusPerRow * scan.mcuRows
        var mcu = 0
        while mcu < total {
            guard include(mcu) else {
                mcu += 1
                continue
            }
            let interval = mcu / scan.restartInterval
            let limit = min((mcu / scan.mcusPerRow + 1) * scan.mcusPerRow, scan.mcus(ofInterval: interval).upperBound)
            var end = mcu + 1
            while end < limit && include(end) { end += 1 }
            result.append(Run(first: mcu, count: end - mcu, interval: interval))
            mcu = end
        }
        return result
    }

    /// Runs in groups small enough to be one small JPEG one MCU row high: at most 65,500 pixels
    /// wide, libjpeg-turbo's limit (a run, within a row of the frame, always fits).
    private func strips(of runs: [Run], _ scan: JPEGRestartScan) -> [[Run]] {
        let most = 65_500 / scan.mcuWidth
        var groups: [[Run]] = []
        var current: [Run] = []
        var count = 0
        for run in runs {
            if count + run.count > most {
                groups.append(current)
                current = []
                count = 0
            }
            current.append(run)
            count += run.count
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// Indexes interval `index` of the frame (once); false, with ``refusal`` set, when it does
    /// not hold its MCUs.
    private func index(_ index: Int, _ scan: JPEGRestartScan) -> Bool {
        guard !indexed[index] else { return true }
        let range = scan.intervals[index]
        let status = frame.withUnsafeBufferPointer { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return 2 }
            return frameData.index(
                base + range.lowerBound, size: range.count, mcus: scan.mcus(ofInterval: index).count,
                bitsOffset: range.lowerBound + 16 * index,
                entriesOffset: scan.mcus(ofInterval: index).lowerBound + index,
                tables: tables)
        }
        guard status == 0 else {
            refusal = Self.problem(status, interval: index)
            return false
        }
        indexed[index] = true
        return true
    }

    /// Interval `index` of the frame, indexed, for `arcj_assemble`.
    private func frameSource(_ index: Int, _ scan: JPEGRestartScan) -> arcj_indexed {
        frameData.source(
            bitsOffset: scan.intervals[index].lowerBound + 16 * index,
            entriesOffset: scan.mcus(ofInterval: index).lowerBound + index, mcus: scan.mcus(ofInterval: index).count)
    }

    /// What a walk or index status says of interval `index`.
    private static func problem(_ status: Int32, interval index: Int) -> String {
        switch status {
        case 1: "restart interval \(index): a code no Huffman table has"
        case 2: "restart interval \(index) is cut short"
        default: "restart interval \(index) has bytes after its last MCU"
        }
    }

    /// Appends the MCUs `pieces` name to `assembled` at `size`, as one interval's data.
    private func assemble(_ sources: [arcj_indexed], _ pieces: [arcj_piece], _ scan: JPEGRestartScan, size: inout Int)
        throws(JPEGError)
    {
        var length = size
        var capacity = assembledCapacity
        let status = sources.withUnsafeBufferPointer { sources in
            pieces.withUnsafeBufferPointer { pieces in
                tables.componentDC.withUnsafeBufferPointer { dc in
                    arcj_assemble(
                        sources.baseAddress, pieces.baseAddress, Int32(pieces.count), Int32(scan.components.count),
                        dc.baseAddress, &assembled, &capacity, &length)
                }
            }
        }
        assembledCapacity = capacity
        switch status {
        case 0: size = length
        case -1:
            refusal = "a DC value out of range for baseline coding"
            throw .corrupt("a DC value out of range for baseline coding")
        default: throw .encodingFailed("out of memory writing a spliced interval")
        }
    }

    /// Checks the Huffman codes of every interval neither indexed nor decoded whole; a description
    /// of the first that does not hold.
    private func walk(_ scan: JPEGRestartScan) -> String? {
        frame.withUnsafeBufferPointer { bytes -> String? in
            guard let base = bytes.baseAddress else { return "no data" }
            for (index, range) in scan.intervals.enumerated() where !indexed[index] && !whole[index] {
                let status = frameData.index(
                    base + range.lowerBound, size: range.count, mcus: scan.mcus(ofInterval: index).count,
                    bitsOffset: range.lowerBound + 16 * index, entriesOffset: nil, tables: tables)
                if status != 0 { return Self.problem(status, interval: index) }
            }
            return nil
        }
    }

    /// Makes the strip at least `width` x `height` pixels.
    private func reserveStrip(width: Int, height: Int, _ scan: JPEGRestartScan) {
        if strip.subsampling != scan.subsampling || strip.height < height || strip.width < width {
            // Wider than asked, so that a few more MCUs in the next frame do not allocate again.
            let widened = min(
                65_500 / scan.mcuWidth * scan.mcuWidth,
                (width + 64 * scan.mcuWidth - 1) / (64 * scan.mcuWidth) * 64 * scan.mcuWidth)
            strip = YCbCrImage(
                width: max(width, widened), height: max(height, strip.height), subsampling: scan.subsampling)
        }
    }

    /// Decodes the MCUs of `group` as one small JPEG and copies them into `canvas`.
    private func decode(_ group: [Run], _ scan: JPEGRestartScan, into canvas: inout YCbCrImage) throws(JPEGError) {
        var slots: [Int: Int32] = [:]
        var sources: [arcj_indexed] = []
        var pieces: [arcj_piece] = []
        for run in group {
            let slot: Int32
            if let known = slots[run.interval] {
                slot = known
            } else {
                slot = Int32(sources.count)
                slots[run.interval] = slot
                sources.append(frameSource(run.interval, scan))
            }
            let first = run.first - scan.mcus(ofInterval: run.interval).lowerBound
            pieces.append(arcj_piece(source: slot, first: Int32(first), count: Int32(run.count)))
        }
        var size = 0
        try assemble(sources, pieces, scan, size: &size)
        let count = group.reduce(0) { $0 + $1.count }
        var small: [UInt8] = [0xFF, 0xD8]
        small.reserveCapacity(size + 2048)
        for segment in scan.tableSegments { small.append(contentsOf: frame[segment]) }
        if !scan.hasHuffmanTables, let tables = JPEGStructure.standardHuffmanTables {
            small.append(contentsOf: tables)
        }
        var header = Array(frame[scan.frameHeader])
        let (width, height) = (count * scan.mcuWidth, scan.mcuHeight)
        header[5] = UInt8(height >> 8)
        header[6] = UInt8(height & 0xFF)
        header[7] = UInt8(width >> 8)
        header[8] = UInt8(width & 0xFF)
        small.append(contentsOf: header)
        small.append(contentsOf: frame[scan.scanHeader])
        if let assembled { small.append(contentsOf: UnsafeBufferPointer(start: assembled, count: size)) }
        small.append(contentsOf: [0xFF, 0xD9])
        reserveStrip(width: width, height: height, scan)
        let result = small.withUnsafeBytes { bytes in
            Result { () throws(JPEGError) in try decoder.decode(bytes, intoTopLeftOf: &strip) }
        }
        try result.get()
        copy(Self.placed(group), scan, canvas: &canvas, toCanvas: true)
    }

    /// Encodes the MCUs of `group` from `canvas` as one small JPEG, and indexes its data.
    private func encode(
        _ group: [Run], _ scan: JPEGRestartScan, from canvas: inout YCbCrImage, into data: IndexedScanData
    ) throws(JPEGError) {
        let count = group.reduce(0) { $0 + $1.count }
        reserveStrip(width: count * scan.mcuWidth, height: scan.mcuHeight, scan)
        copy(Self.placed(group), scan, canvas: &canvas, toCanvas: false)
        let settings = Self.settings(scan, width: count * scan.mcuWidth, height: scan.mcuHeight)
        let bytes = try compressor.compress(
            strip, settings: settings, sizes: Self.stripSizes(scan, mcus: count, rows: 1))
        guard let range = Self.entropyCodedData(bytes) else {
            throw .encodingFailed("libjpeg's output has no scan")
        }
        data.reserve(bytes: range.count + 16, entries: count + 1)
        let status = bytes.withUnsafeBufferPointer { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return 2 }
            return data.index(
                base + range.lowerBound, size: range.count, mcus: count, bitsOffset: 0, entriesOffset: 0,
                tables: tables)
        }
        guard status == 0 else { throw .encodingFailed("libjpeg's output does not hold \(count) MCUs") }
    }

    /// The entropy-coded data of a JPEG libjpeg wrote (one scan, then EOI).
    private static func entropyCodedData(_ bytes: [UInt8]) -> Range<Int>? {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            if bytes[offset + 1] == 0xDA {
                let start = offset + 2 + length
                guard start <= bytes.count - 2, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 else {
                    return nil
                }
                return start..<(bytes.count - 2)
            }
            offset += 2 + length
        }
        return nil
    }

    /// Where runs go in the strip: one after another in its first MCU row.
    private static func placed(_ group: [Run]) -> [(run: Run, row: Int, column: Int)] {
        var column = 0
        return group.map { run in
            defer { column += run.count }
            return (run, 0, column)
        }
    }

    /// The samples of each plane of a strip `mcus` MCUs long and `rows` MCU rows high.
    private static func stripSizes(_ scan: JPEGRestartScan, mcus: Int, rows: Int) -> [(width: Int, height: Int)] {
        scan.components.map { component in
            scan.components.count == 1
                ? (mcus * 8, rows * 8) : (mcus * component.h * 8, rows * component.v * 8)
        }
    }

    /// Copies runs of MCUs between the canvas (where the frame has them) and the strip (at the MCU
    /// row and column given): into the canvas up to its planes' edges, out of it with the last
    /// column and row repeated past them.
    private func copy(
        _ placed: [(run: Run, row: Int, column: Int)], _ scan: JPEGRestartScan, canvas: inout YCbCrImage,
        toCanvas: Bool
    ) {
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
                    for (run, stripRow, stripColumn) in placed {
                        let (mcuRow, column) = (run.first / scan.mcusPerRow, run.first % scan.mcusPerRow)
                        let x = column * blockWidth
                        let count = run.count * blockWidth
                        let inside = min(count, planeWidth - x)
                        for line in 0..<blockHeight {
                            let stripLine =
                                stripBase + (stripRow * blockHeight + line) * stripStride
                                + stripColumn * blockWidth
                            let y = mcuRow * blockHeight + line
                            if toCanvas {
                                guard y < planeHeight else { break }
                                memcpy(canvasBase + y * canvasStride + x, stripLine, inside)
                            } else {
                                let source = canvasBase + min(y, planeHeight - 1) * canvasStride
                                memcpy(stripLine, source + x, inside)
                                if inside < count {
                                    memset(stripLine + inside, Int32(source[planeWidth - 1]), count - inside)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    // MARK: Intervals decoded and encoded whole

    /// Intervals in groups that share a length (all but possibly the last interval of the frame),
    /// each small enough to be one small JPEG: a group is as many MCU rows high as it has
    /// intervals, and a frame header holds at most 65,500 (a 1080p frame with a restart marker
    /// every MCU has 16,200 intervals).
    private func groups(of indices: [Int], _ scan: JPEGRestartScan) -> [[Int]] {
        let short = indices.filter { scan.mcus(ofInterval: $0).count != scan.restartInterval }
        let full = indices.filter { scan.mcus(ofInterval: $0).count == scan.restartInterval }
        let most = max(1, min(4096, 65_500 / scan.mcuHeight))
        return [full, short].filter { !$0.isEmpty }.flatMap { group in
            stride(from: 0, to: group.count, by: most).map { Array(group[$0..<min($0 + most, group.count)]) }
        }
    }

    /// Where a group's intervals go in the strip: interval i of the group in MCU row i, as runs
    /// within the frame's MCU rows.
    private func placed(intervals group: [Int], _ scan: JPEGRestartScan) -> [(run: Run, row: Int, column: Int)] {
        var result: [(run: Run, row: Int, column: Int)] = []
        for (row, interval) in group.enumerated() {
            let mcus = scan.mcus(ofInterval: interval)
            var mcu = mcus.lowerBound
            while mcu < mcus.upperBound {
                let end = min(mcus.upperBound, (mcu / scan.mcusPerRow + 1) * scan.mcusPerRow)
                result.append((Run(first: mcu, count: end - mcu, interval: interval), row, mcu - mcus.lowerBound))
                mcu = end
            }
        }
        return result
    }

    /// Decodes `group` (intervals of one length) as one small JPEG, an interval a row with restart
    /// markers between them, and copies each into `canvas`.
    private func decodeWhole(_ group: [Int], _ scan: JPEGRestartScan, into canvas: inout YCbCrImage)
        throws(JPEGError)
    {
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
        reserveStrip(width: width, height: height, scan)
        let result = small.withUnsafeBytes { bytes in
            Result { () throws(JPEGError) in try decoder.decode(bytes, intoTopLeftOf: &strip) }
        }
        try result.get()
        copy(placed(intervals: group, scan), scan, canvas: &canvas, toCanvas: true)
    }

    /// Encodes `group` from `canvas` as one small JPEG with a restart marker every row; each
    /// interval's entropy-coded data.
    private func encodeWhole(_ group: [Int], _ scan: JPEGRestartScan, from canvas: inout YCbCrImage)
        throws(JPEGError) -> [ArraySlice<UInt8>]
    {
        let length = scan.mcus(ofInterval: group[0]).count
        let (width, height) = (length * scan.mcuWidth, group.count * scan.mcuHeight)
        reserveStrip(width: width, height: height, scan)
        copy(placed(intervals: group, scan), scan, canvas: &canvas, toCanvas: false)
        var settings = Self.settings(scan, width: width, height: height)
        // A restart interval per row of the strip (DRI even for one), so that the output is read
        // as the frames are.
        settings.restart_interval = Int32(length)
        let bytes = try compressor.compress(
            strip, settings: settings, sizes: Self.stripSizes(scan, mcus: length, rows: group.count))
        guard let written = bytes.withUnsafeBytes({ JPEGRestartScan($0) }), written.intervals.count == group.count
        else {
            throw .encodingFailed("libjpeg's output does not hold \(group.count) restart intervals")
        }
        return written.intervals.map { bytes[$0] }
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
            let converted = tables.map { $0.map(JPEGBlockTables.huffman) ?? arcj_huffman_table() }
            return (converted[0], converted[1], converted[2], converted[3])
        }
        settings.dc = tables(scan.dcTables)
        settings.ac = tables(scan.acTables)
        return settings
    }

}
