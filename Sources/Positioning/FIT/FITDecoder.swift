import Foundation

/// Walks the messages of a FIT file (a chain of one or more FIT files, as devices that append
/// write them): definitions, data messages with normal and compressed-timestamp headers, and
/// developer fields (skipped by their sizes), keeping the `record` messages' time, position,
/// altitude and speed and the first `file_id`'s maker.
///
/// A hand-written reader, not a library: Debian packages no FIT decoder for C (Garmin's FIT SDK is
/// under its own licence and not packaged), and arcapture needs four fields of one message; the
/// protocol (Garmin's "FIT Protocol" document: headers, definitions, base types, the CRC) is small
/// and fixed since 2011. Checked against fitdecode's reading of every sample
/// (`Tests/PositioningTests/Fixtures/make-fit-expected.py`).
struct FITDecoder {
    /// One `record` message with a time.
    struct Record {
        /// Seconds since the FIT epoch (1989-12-31T00:00:00Z); below 0x10000000 the device's own
        /// clock since it started, not UTC.
        var timestamp: UInt32
        var latitude: Int32?
        var longitude: Int32?
        /// Metres above sea level (`enhanced_altitude`, else `altitude`).
        var altitude: Double?
        /// Metres per second (`enhanced_speed`, else `speed`).
        var speed: Double?
        /// The byte its header is at, for messages.
        var offset: Int
    }

    /// What stopped the reading early, with the byte it was at: the rest of the file is not read.
    struct Stop: Error {
        var offset: Int
        var problem: String
    }

    private(set) var records: [Record] = []
    /// `record` messages without a time (neither their own nor a compressed header's).
    private(set) var untimed = 0
    /// The first `file_id`'s manufacturer and product numbers.
    private(set) var maker: (manufacturer: UInt16, product: UInt16?)?
    /// Files in the chain.
    private(set) var files = 0
    /// Data messages with compressed-timestamp headers.
    private(set) var compressedTimestamps = 0
    /// Developer fields defined.
    private(set) var developerFields = 0
    /// Why the reading stopped before the end, if it did.
    private(set) var stop: Stop?

    /// The FIT epoch, 1989-12-31T00:00:00Z, in Unix seconds.
    static let epoch: TimeInterval = 631_065_600

    /// Whether `head` starts with a FIT file header (12 or 14 bytes, `.FIT` at byte 8).
    static func isFITFile(head: [UInt8]) -> Bool {
        head.count >= 12 && (head[0] == 12 || head[0] == 14) && Array(head[8..<12]) == Array(".FIT".utf8)
    }

    /// Reads `bytes`.
    ///
    /// - Throws: `Stop` for a corrupt header or a CRC that does not match: nothing in the file can be
    ///   trusted then. A file cut short, or a message that cannot be read, ends the reading with
    ///   ``stop`` set and what came before it kept.
    init(_ bytes: [UInt8]) throws(Stop) {
        var offset = 0
        while offset < bytes.count {
            guard bytes.count - offset >= 12 else {
                if files == 0 { throw Stop(offset: offset, problem: "too short for a FIT header (12 bytes)") }
                stop = Stop(
                    offset: offset, problem: "\(bytes.count - offset) bytes after the last file, not a FIT header")
                return
            }
            let headerSize = Int(bytes[offset])
            guard headerSize == 12 || headerSize == 14 else {
                throw Stop(
                    offset: offset,
                    problem: "a corrupt header: its size is \(headerSize) (a FIT header is 12 or 14 bytes)")
            }
            guard Array(bytes[(offset + 8)..<(offset + 12)]) == Array(".FIT".utf8) else {
                throw Stop(offset: offset + 8, problem: "a corrupt header: no \".FIT\" signature")
            }
            if headerSize == 14, bytes.count - offset >= 14 {
                let stated = UInt16(bytes[offset + 12]) | UInt16(bytes[offset + 13]) << 8
                let computed = FITCRC.of(bytes, offset..<(offset + 12))
                if stated != 0, stated != computed {
                    throw Stop(
                        offset: offset + 12,
                        problem: String(
                            format: "a corrupt header: its CRC is 0x%04X, its bytes give 0x%04X", stated, computed))
                }
            }
            let dataSize = Int(
                UInt32(bytes[offset + 4]) | UInt32(bytes[offset + 5]) << 8
                    | UInt32(bytes[offset + 6]) << 16 | UInt32(bytes[offset + 7]) << 24)
            let dataStart = offset + headerSize
            let dataEnd = dataStart + dataSize
            files += 1
            if dataEnd + 2 <= bytes.count {
                let stated = UInt16(bytes[dataEnd]) | UInt16(bytes[dataEnd + 1]) << 8
                let computed = FITCRC.of(bytes, offset..<dataEnd)
                guard stated == computed else {
                    throw Stop(
                        offset: dataEnd,
                        problem: String(
                            format: "the CRC does not match: the file says 0x%04X, its bytes give 0x%04X "
                                + "(damaged in a copy or a transfer)", stated, computed))
                }
            }
            do {
                try readMessages(bytes, from: dataStart, to: min(dataEnd, bytes.count))
            } catch {
                stop = error
                return
            }
            if dataEnd > bytes.count {
                stop = Stop(
                    offset: bytes.count,
                    problem: "the file ends \(dataEnd + 2 - bytes.count) bytes before its header says (cut short; "
                        + "its CRC cannot be checked)")
                return
            }
            offset = dataEnd + 2
        }
    }

    /// The messages between `start` and `end`.
    private mutating func readMessages(_ bytes: [UInt8], from start: Int, to end: Int) throws(Stop) {
        var definitions = [FITMessageDefinition?](repeating: nil, count: 16)
        var lastTimestamp: UInt32?
        var offset = start
        func need(_ count: Int, at position: Int, _ what: String) throws(Stop) {
            guard position + count <= end else {
                throw Stop(offset: position, problem: "the file ends inside \(what) (cut short)")
            }
        }
        while offset < end {
            let header = bytes[offset]
            let headerOffset = offset
            offset += 1
            if header & 0x80 != 0 {
                // A compressed-timestamp header: the local type in bits 5-6, a 5-bit time offset.
                let local = Int((header >> 5) & 0x3)
                guard let definition = definitions[local] else {
                    throw Stop(offset: headerOffset, problem: "local message \(local) is used before it is defined")
                }
                try need(definition.size, at: offset, "a message")
                let low = UInt32(header & 0x1F)
                var timestamp: UInt32?
                if let last = lastTimestamp {
                    var value = (last & ~0x1F) + low
                    if low < last & 0x1F { value &+= 0x20 }
                    timestamp = value
                    lastTimestamp = value
                }
                compressedTimestamps += 1
                take(
                    definition, bytes, at: offset, headerOffset: headerOffset, timestamp: timestamp,
                    last: &lastTimestamp)
                offset += definition.size
            } else if header & 0x40 != 0 {
                // A definition.
                try need(5, at: offset, "a definition")
                let bigEndian = bytes[offset + 1] == 1
                let global =
                    bigEndian
                    ? UInt16(bytes[offset + 2]) << 8 | UInt16(bytes[offset + 3])
                    : UInt16(bytes[offset + 2]) | UInt16(bytes[offset + 3]) << 8
                let count = Int(bytes[offset + 4])
                offset += 5
                try need(count * 3, at: offset, "a definition")
                var fields: [FITMessageDefinition.Field] = []
                var size = 0
                for index in 0..<count {
                    let base = offset + index * 3
                    fields.append(
                        FITMessageDefinition.Field(
                            number: bytes[base], size: Int(bytes[base + 1]), baseType: bytes[base + 2], offset: size))
                    size += Int(bytes[base + 1])
                }
                offset += count * 3
                if header & 0x20 != 0 {
                    try need(1, at: offset, "a definition")
                    let developer = Int(bytes[offset])
                    offset += 1
                    try need(developer * 3, at: offset, "a definition")
                    for index in 0..<developer { size += Int(bytes[offset + index * 3 + 1]) }
                    developerFields += developer
                    offset += developer * 3
                }
                definitions[Int(header & 0x0F)] = FITMessageDefinition(
                    global: global, bigEndian: bigEndian, fields: fields, size: size)
            } else {
                let local = Int(header & 0x0F)
                guard let definition = definitions[local] else {
                    throw Stop(offset: headerOffset, problem: "local message \(local) is used before it is defined")
                }
                try need(definition.size, at: offset, "a message")
                take(definition, bytes, at: offset, headerOffset: headerOffset, timestamp: nil, last: &lastTimestamp)
                offset += definition.size
            }
        }
    }

    /// Keeps what a data message says: its timestamp (field 253) for the compressed headers after
    /// it, a `record`'s values, the first `file_id`'s maker.
    private mutating func take(
        _ definition: FITMessageDefinition, _ bytes: [UInt8], at start: Int, headerOffset: Int, timestamp: UInt32?,
        last: inout UInt32?
    ) {
        var time = timestamp
        if let own = definition.unsigned(definition.field(253), in: bytes, at: start, size: 4) {
            time = UInt32(truncatingIfNeeded: own)
            last = time
        }
        switch definition.global {
        case 20:
            guard let time else {
                untimed += 1
                return
            }
            func scaled(_ number: UInt8, size: Int, scale: Double, offset: Double = 0) -> Double? {
                definition.unsigned(definition.field(number), in: bytes, at: start, size: size).map {
                    Double($0) / scale - offset
                }
            }
            records.append(
                Record(
                    timestamp: time,
                    latitude: definition.signed32(definition.field(0), in: bytes, at: start),
                    longitude: definition.signed32(definition.field(1), in: bytes, at: start),
                    altitude: scaled(78, size: 4, scale: 5, offset: 500) ?? scaled(2, size: 2, scale: 5, offset: 500),
                    speed: scaled(73, size: 4, scale: 1000) ?? scaled(6, size: 2, scale: 1000),
                    offset: headerOffset))
        case 0 where maker == nil:
            if let manufacturer = definition.unsigned(definition.field(1), in: bytes, at: start, size: 2) {
                maker = (
                    UInt16(manufacturer),
                    definition.unsigned(definition.field(2), in: bytes, at: start, size: 2).map { UInt16($0) }
                )
            }
        default: break
        }
    }
}
