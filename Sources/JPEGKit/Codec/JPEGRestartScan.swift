import ArcaptureCore
import Glibc

/// A baseline JPEG read far enough to splice it: its tables, its MCU geometry, and the byte range
/// of each restart interval's entropy-coded data.
///
/// Many UVC webcams write a restart marker (DRI, then RSTn in the scan) every MCU row or so: the
/// entropy-coded data restarts there, byte-aligned, with the DC predictions reset, so each interval
/// can be decoded, re-encoded or copied on its own (``JPEGSplicer``). A frame without them (many
/// cameras' MJPEG) is one interval of every MCU, which the splicer writes again MCU
/// by MCU. What is read here is only what splicing needs; anything else (progressive or arithmetic
/// coding, 12-bit samples, several scans, a chroma layout the planes cannot hold, restart markers
/// missing, out of order or without DRI, no end marker) gives nil, and the frame takes the full
/// decode, which decides whether it is readable.
struct JPEGRestartScan {
    /// One colour component as the frame and scan headers give it.
    struct Component {
        var id: Int32
        var h: Int
        var v: Int
        var quantTable: Int
        var dcTable: Int
        var acTable: Int
    }

    /// A Huffman table as a DHT segment holds it.
    struct HuffmanTable {
        var bits: [UInt8]
        var values: [UInt8]
    }

    var width = 0
    var height = 0
    var subsampling = ChromaSubsampling.gray
    /// Y, Cb, Cr (or Y alone), in the scan's order, which is the frame header's.
    var components: [Component] = []
    /// Quantisation tables 0-3 in zigzag order, as the DQT segments give them.
    var quantTables: [[UInt16]?] = [nil, nil, nil, nil]
    var dcTables: [HuffmanTable?] = [nil, nil, nil, nil]
    var acTables: [HuffmanTable?] = [nil, nil, nil, nil]
    /// False for a UVC camera's frame, which leaves the standard tables out.
    var hasHuffmanTables = false
    /// MCUs per restart interval: every MCU of the frame when it has no restart markers.
    var restartInterval = 0
    /// False for a frame without DRI, whose scan is one interval.
    var hasRestartMarkers = false
    /// The frame header (SOF), the start of scan (SOS) and every DQT and DHT segment, marker
    /// included.
    var frameHeader = 0..<0
    var scanHeader = 0..<0
    var tableSegments: [Range<Int>] = []
    /// Each interval's entropy-coded data, without its marker.
    var intervals: [Range<Int>] = []

    /// MCU size in pixels, and the frame in MCUs.
    var mcuWidth: Int { components.count == 1 ? 8 : subsampling.horizontalFactor * 8 }
    var mcuHeight: Int { components.count == 1 ? 8 : subsampling.verticalFactor * 8 }
    var mcusPerRow: Int { (width + mcuWidth - 1) / mcuWidth }
    var mcuRows: Int { (height + mcuHeight - 1) / mcuHeight }

    /// The MCUs of interval `index`.
    func mcus(ofInterval index: Int) -> Range<Int> {
        let start = index * restartInterval
        return start..<min(start + restartInterval, mcusPerRow * mcuRows)
    }

    /// Why a frame cannot be spliced, for the user ("progressive", "12-bit samples"...).
    struct Refusal: Error, Equatable {
        var reason: String
    }

    /// Reads `bytes`; nil when the frame cannot be spliced (see the type's description).
    init?(_ bytes: UnsafeRawBufferPointer) {
        do {
            try self.init(reading: bytes)
        } catch {
            return nil
        }
    }

    /// Reads `bytes`.
    ///
    /// - Throws: ``Refusal`` saying why the frame cannot be spliced.
    init(reading bytes: UnsafeRawBufferPointer) throws(Refusal) {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw Refusal(reason: "not a JPEG") }
        var offset = 2
        var frame: (width: Int, height: Int, components: [Component])?
        while true {
            guard offset + 4 <= bytes.count, bytes[offset] == 0xFF else {
                throw Refusal(reason: "its header ends before the scan")
            }
            let marker = bytes[offset + 1]
            if marker == 0xFF {  // a fill byte
                offset += 1
                continue
            }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else {
                throw Refusal(reason: "a header segment runs past the frame")
            }
            let segment = offset..<(offset + 2 + length)
            let body = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<segment.upperBound])
            switch marker {
            case 0xDB:
                guard readQuantisationTables(body) else { throw Refusal(reason: "a damaged quantisation table") }
                tableSegments.append(segment)
            case 0xC4:
                guard readHuffmanTables(body) else { throw Refusal(reason: "a damaged Huffman table") }
                hasHuffmanTables = true
                tableSegments.append(segment)
            case 0xDD:
                guard body.count == 2 else { throw Refusal(reason: "a damaged restart interval segment") }
                restartInterval = Int(body[0]) << 8 | Int(body[1])
            case 0xC0, 0xC1:  // baseline and extended sequential, Huffman-coded
                guard frame == nil else { throw Refusal(reason: "two frame headers") }
                let read = try Self.frameHeader(body)
                frame = read
                frameHeader = segment
            case 0xC2, 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF, 0xDC:
                throw Refusal(reason: Self.coding(marker))
            case 0xDA:
                guard let frame else { throw Refusal(reason: "a scan before the frame header") }
                try readScanHeader(body, frame: frame)
                scanHeader = segment
                try splitIntervals(bytes, from: segment.upperBound)
                return
            default:
                break  // APPn, COM: kept as they are
            }
            offset = segment.upperBound
        }
    }

    private mutating func readQuantisationTables(_ body: UnsafeRawBufferPointer) -> Bool {
        var at = 0
        while at < body.count {
            let precision = Int(body[at] >> 4)
            let index = Int(body[at] & 0x0F)
            let size = precision == 0 ? 64 : 128
            guard precision <= 1, index < 4, at + 1 + size <= body.count else { return false }
            quantTables[index] = (0..<64).map { k in
                precision == 0
                    ? UInt16(body[at + 1 + k]) : UInt16(body[at + 1 + 2 * k]) << 8 | UInt16(body[at + 2 + 2 * k])
            }
            at += 1 + size
        }
        return true
    }

    private mutating func readHuffmanTables(_ body: UnsafeRawBufferPointer) -> Bool {
        Self.readHuffmanTables(body, dc: &dcTables, ac: &acTables)
    }

    /// The standard tables (JPEG Annex K), which a frame without DHT is coded with.
    private static let standardTables: (dc: [HuffmanTable?], ac: [HuffmanTable?])? = {
        guard let standard = JPEGStructure.standardHuffmanTables else { return nil }
        var tables: (dc: [HuffmanTable?], ac: [HuffmanTable?]) = ([nil, nil, nil, nil], [nil, nil, nil, nil])
        var offset = 0
        while offset + 4 <= standard.count, standard[offset] == 0xFF, standard[offset + 1] == 0xC4 {
            let end = offset + 2 + (Int(standard[offset + 2]) << 8 | Int(standard[offset + 3]))
            guard end <= standard.count,
                Array(standard[(offset + 4)..<end]).withUnsafeBytes({
                    readHuffmanTables($0, dc: &tables.dc, ac: &tables.ac)
                })
            else { return nil }
            offset = end
        }
        return tables
    }()

    private static func readHuffmanTables(
        _ body: UnsafeRawBufferPointer, dc dcTables: inout [HuffmanTable?], ac acTables: inout [HuffmanTable?]
    ) -> Bool {
        var at = 0
        while at < body.count {
            let tableClass = Int(body[at] >> 4)
            let index = Int(body[at] & 0x0F)
            guard tableClass <= 1, index < 4, at + 17 <= body.count else { return false }
            let bits = Array(body[(at + 1)..<(at + 17)])
            let count = bits.reduce(0) { $0 + Int($1) }
            guard count > 0, count <= 256, at + 17 + count <= body.count else { return false }
            let table = HuffmanTable(bits: bits, values: Array(body[(at + 17)..<(at + 17 + count)]))
            if tableClass == 0 { dcTables[index] = table } else { acTables[index] = table }
            at += 17 + count
        }
        return true
    }

    /// What a frame header marker other than baseline and extended sequential Huffman says.
    private static func coding(_ marker: UInt8) -> String {
        switch marker {
        case 0xC2: "progressive"
        case 0xC3: "lossless"
        case 0xC5...0xC7: "hierarchical"
        case 0xDC: "a DNL marker (its height given after the scan)"
        default: "arithmetic-coded"
        }
    }

    private static func frameHeader(_ body: UnsafeRawBufferPointer) throws(Refusal) -> (
        width: Int, height: Int, components: [Component]
    ) {
        guard body.count >= 6 else { throw Refusal(reason: "a damaged frame header") }
        guard body[0] == 8 else { throw Refusal(reason: "\(body[0])-bit samples") }
        let height = Int(body[1]) << 8 | Int(body[2])
        let width = Int(body[3]) << 8 | Int(body[4])
        let count = Int(body[5])
        guard count == 1 || count == 3 else { throw Refusal(reason: "\(count) colour components") }
        guard width > 0, height > 0, body.count >= 6 + 3 * count else {
            throw Refusal(reason: "a damaged frame header")
        }
        let components = (0..<count).map { i in
            Component(
                id: Int32(body[6 + 3 * i]), h: Int(body[7 + 3 * i] >> 4), v: Int(body[7 + 3 * i] & 0x0F),
                quantTable: Int(body[8 + 3 * i]), dcTable: 0, acTable: 0)
        }
        return (width, height, components)
    }

    private mutating func readScanHeader(
        _ body: UnsafeRawBufferPointer, frame: (width: Int, height: Int, components: [Component])
    ) throws(Refusal) {
        let count = Int(body.first ?? 0)
        let several = Refusal(reason: "several scans")
        guard count == frame.components.count, body.count == 4 + 2 * count else { throw several }
        // One scan of every component in the frame header's order, all 64 coefficients at once.
        guard body[1 + 2 * count] == 0, body[2 + 2 * count] == 63, body[3 + 2 * count] == 0 else { throw several }
        components = frame.components
        for i in 0..<count {
            guard Int32(body[1 + 2 * i]) == components[i].id else { throw several }
            components[i].dcTable = Int(body[2 + 2 * i] >> 4)
            components[i].acTable = Int(body[2 + 2 * i] & 0x0F)
            guard components[i].dcTable < 4, components[i].acTable < 4, components[i].quantTable < 4,
                quantTables[components[i].quantTable] != nil
            else { throw Refusal(reason: "a table the scan names is missing") }
        }
        if count == 1 {
            subsampling = .gray
        } else {
            // The planes hold chroma at one resolution, luma at a multiple of it.
            let factors = components.map { "\($0.h)x\($0.v)" }.joined(separator: ", ")
            let layout = Refusal(reason: "sampling factors \(factors), where splicing takes chroma at 1x1")
            guard components[1].h == 1, components[1].v == 1, components[2].h == 1, components[2].v == 1 else {
                throw layout
            }
            switch (components[0].h, components[0].v) {
            case (1, 1): subsampling = .s444
            case (2, 1): subsampling = .s422
            case (2, 2): subsampling = .s420
            case (1, 2): subsampling = .s440
            case (4, 1): subsampling = .s411
            default: throw layout
            }
        }
        if hasHuffmanTables {
            for component in components where dcTables[component.dcTable] == nil || acTables[component.acTable] == nil {
                throw Refusal(reason: "a table the scan names is missing")
            }
        } else {
            // Without DHT (a UVC camera's MJPEG) the standard tables apply: 0 for luma, 1 for chroma.
            guard components.allSatisfy({ $0.dcTable < 2 && $0.acTable < 2 }), let standard = Self.standardTables
            else { throw Refusal(reason: "a table the scan names is missing") }
            (dcTables, acTables) = standard
        }
        // Re-encoding a touched interval with these tables needs a code for every symbol a block
        // can give (12 DC sizes; 160 AC run-sizes, end of block and the run of 16): a camera's
        // optimised tables may leave some out, and such a frame is transcoded whole instead.
        for component in components {
            guard let dc = dcTables[component.dcTable], let ac = acTables[component.acTable],
                Set(dc.values).isSuperset(of: Self.dcSymbols), Set(ac.values).isSuperset(of: Self.acSymbols)
            else { throw Refusal(reason: "optimised Huffman tables, without codes a drawn block may need") }
        }
        width = frame.width
        height = frame.height
        hasRestartMarkers = restartInterval > 0  // DRI 0 says there are none
        guard hasRestartMarkers else {
            // One interval: it is written again MCU by MCU, never decoded whole as one small JPEG.
            restartInterval = mcusPerRow * mcuRows
            return
        }
        // A small JPEG of one interval is an interval's MCUs in one row: it must fit a frame header.
        guard restartInterval * mcuWidth <= 65_535 else { throw Refusal(reason: "restart intervals too long") }
    }

    private static let dcSymbols = Set<UInt8>(0...11)
    private static let acSymbols = Set<UInt8>(
        [0x00, 0xF0] + (0..<16).flatMap { run in (1...10).map { UInt8(run << 4 | $0) } })

    /// Finds each RSTn (in order, 0-7 repeating) and the end of image.
    ///
    /// - Throws: ``Refusal`` when one is missing or out of order, another marker interrupts the
    ///   scan, or it has no end.
    private mutating func splitIntervals(_ bytes: UnsafeRawBufferPointer, from start: Int) throws(Refusal) {
        let order = Refusal(reason: "restart markers missing or out of order")
        let end = Refusal(reason: "no end-of-image marker")
        guard let base = bytes.baseAddress else { throw end }
        let expected = (mcusPerRow * mcuRows + restartInterval - 1) / restartInterval
        intervals.reserveCapacity(expected)
        var intervalStart = start
        var at = start
        while at < bytes.count {
            guard let found = memchr(base + at, 0xFF, bytes.count - at) else { throw end }
            let marker = base.distance(to: UnsafeRawPointer(found))
            var next = marker + 1
            while next < bytes.count && bytes[next] == 0xFF { next += 1 }  // fill bytes before a marker
            guard next < bytes.count else { throw end }
            switch bytes[next] {
            case 0x00:
                at = next + 1
            case 0xD0...0xD7:
                guard Int(bytes[next] - 0xD0) == intervals.count % 8, intervals.count + 1 < expected else {
                    throw order
                }
                intervals.append(intervalStart..<marker)
                intervalStart = next + 1
                at = next + 1
            case 0xD9:
                intervals.append(intervalStart..<marker)
                guard intervals.count == expected else { throw order }
                return
            default:
                throw Refusal(reason: "a marker inside the scan")
            }
        }
        throw end
    }
}
