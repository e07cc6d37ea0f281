import Foundation

/// The values arcapture uses in one cue's text, in the three ways DJI's dialects write them:
/// `name: value` pairs (`[latitude: 41.42]`, `[rel_alt: 43.2 abs_alt: 758.9]`, `BAROMETER:1.9`,
/// `[Drone: Yaw:30.6, …]`), calls (`GPS(149.02,-20.25,16)`, `G.PRY (-24.4°, 0.0°, 110.4°)`), and
/// the comma-separated `NAME value` items of the Mavic Mini and Phantom 4 (`H 200.70m`,
/// `H.S 1.84m/s`). Values are byte ranges of the file, read into numbers only when used.
///
/// Read by hand, byte by byte, rather than with regular expressions or `String` splitting: an hour
/// of 30-fps subtitles is 108,000 cues and some 50 MB, to be read in under a second, and the
/// dialects share no grammar a single pattern would capture.
struct DJISubtitleFields {
    /// The pair names used, lowercased as matched.
    enum Name: Int, CaseIterable {
        case latitude, longitude, longtitude, altitude, barometer, hb, yaw, absoluteAltitude, relativeAltitude
        case gimbalYaw, gimbalPitch, gimbalRoll, droneYaw

        /// As the files write it, lowercased.
        var spelling: String {
            switch self {
            case .latitude: "latitude"
            case .longitude: "longitude"
            case .longtitude: "longtitude"
            case .altitude: "altitude"
            case .barometer: "barometer"
            case .hb: "hb"
            case .yaw: "yaw"
            case .absoluteAltitude: "abs_alt"
            case .relativeAltitude: "rel_alt"
            case .gimbalYaw: "gb_yaw"
            case .gimbalPitch: "gb_pitch"
            case .gimbalRoll: "gb_roll"
            case .droneYaw: "drone_yaw"
            }
        }

        private static let spellings: [(bytes: [UInt8], name: Name)] = allCases.map { (Array($0.spelling.utf8), $0) }

        /// The name `range` of `bytes` spells, in any case; compared in place, since hashing every
        /// name in a cue (some 25) was a fifth of the reading's time.
        static func matching(_ bytes: [UInt8], _ range: Range<Int>) -> Name? {
            let count = range.count
            guard count >= 2, count <= 10 else { return nil }
            candidates: for candidate in spellings where candidate.bytes.count == count {
                var offset = 0
                for index in range {
                    let byte = bytes[index]
                    let lower = byte >= 65 && byte <= 90 ? byte + 32 : byte
                    guard lower == candidate.bytes[offset] else { continue candidates }
                    offset += 1
                }
                return candidate.name
            }
            return nil
        }
    }

    /// The calls used.
    enum Call: String, CaseIterable {
        case gps = "GPS"
        case gimbalAttitude = "G.PRY"
        case flightAttitude = "F.PRY"
    }

    /// `name: value` pairs: the first of each name, by ``Name``'s raw value.
    private var pairValues: [Range<Int>?] = Array(repeating: nil, count: Name.allCases.count)
    /// Calls with their arguments.
    private(set) var calls: [Call: [Range<Int>]] = [:]
    /// The height (`H 85.80m`) and horizontal speed (`H.S 1.84m/s`) items.
    private(set) var height: Range<Int>?
    private(set) var horizontalSpeed: Range<Int>?

    /// The value of the first `name: value` pair of `name`.
    subscript(name: Name) -> Range<Int>? { pairValues[name.rawValue] }

    /// Reads `range` of `bytes`.
    init(_ bytes: [UInt8], _ range: Range<Int>) {
        readPairs(bytes, range)
        readCalls(bytes, range)
        readItems(bytes, range)
    }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// The number `range` starts with, unit letters after it ignored (`200.70m`, `0.3M`, `-8.9°`);
    /// nil for `N/A`, an empty value, or more digits than a `Double` holds exactly (which no DJI
    /// file writes). A mantissa under 2^53 divided by an exact power of ten is correctly rounded,
    /// as `Double("…")` would give.
    static func number(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        while index < range.upperBound, isSpace(bytes[index]) { index += 1 }
        var negative = false
        if index < range.upperBound, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var decimals = 0
        var seenPoint = false
        while index < range.upperBound {
            let byte = bytes[index]
            if isDigit(byte) {
                guard digits < 16 else { return nil }
                mantissa = mantissa * 10 + Int64(byte - 48)
                digits += 1
                if seenPoint { decimals += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        let value = Double(mantissa) / Self.powersOfTen[decimals]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...16).map { pow(10, Double($0)) }

    /// Decimals written after the point of the number `range` starts with.
    static func decimals(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        var index = range.lowerBound
        while index < range.upperBound, bytes[index] != UInt8(ascii: ".") {
            guard isDigit(bytes[index]) || isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "-") else { return 0 }
            index += 1
        }
        var count = 0
        index += 1
        while index < range.upperBound, isDigit(bytes[index]) {
            count += 1
            index += 1
        }
        return count
    }

    /// Whether `range` holds `N/A`.
    static func isNotAvailable(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound, isSpace(bytes[index]) { index += 1 }
        return index + 3 <= range.upperBound && bytes[index] == UInt8(ascii: "N")
            && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "A")
    }

    /// `name: value` and `name : value`, where the name is letters, digits and underscores
    /// (starting with a letter) and the value starts like a number.
    private mutating func readPairs(_ bytes: [UInt8], _ range: Range<Int>) {
        var index = range.lowerBound
        while index < range.upperBound {
            guard Self.isLetter(bytes[index]),
                index == range.lowerBound || !(Self.isLetter(bytes[index - 1]) || bytes[index - 1] == UInt8(ascii: "_"))
            else {
                index += 1
                continue
            }
            let nameStart = index
            while index < range.upperBound,
                Self.isLetter(bytes[index]) || Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_")
            {
                index += 1
            }
            let nameEnd = index
            var cursor = index
            while cursor < range.upperBound, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
            guard cursor < range.upperBound, bytes[cursor] == UInt8(ascii: ":") else { continue }
            cursor += 1
            while cursor < range.upperBound, bytes[cursor] == UInt8(ascii: " ") { cursor += 1 }
            // `Drone: Yaw:30.6`: a name whose value is another pair is no pair.
            guard cursor < range.upperBound,
                Self.isDigit(bytes[cursor]) || bytes[cursor] == UInt8(ascii: "-") || bytes[cursor] == UInt8(ascii: "+")
                    || bytes[cursor] == UInt8(ascii: ".") || bytes[cursor] == UInt8(ascii: "N")
            else { continue }
            let start = cursor
            while cursor < range.upperBound, !Self.isSpace(bytes[cursor]), bytes[cursor] != UInt8(ascii: "]"),
                bytes[cursor] != UInt8(ascii: ","), bytes[cursor] != UInt8(ascii: "<")
            {
                cursor += 1
            }
            if cursor > start, let known = Name.matching(bytes, nameStart..<nameEnd), pairValues[known.rawValue] == nil
            {
                pairValues[known.rawValue] = start..<cursor
            }
            index = cursor
        }
    }

    /// `NAME(a,b,c)` and `NAME (a, b, c)`, where the name is letters and dots.
    private mutating func readCalls(_ bytes: [UInt8], _ range: Range<Int>) {
        var index = range.lowerBound
        while index < range.upperBound {
            guard bytes[index] == UInt8(ascii: "(") else {
                index += 1
                continue
            }
            let open = index
            index += 1
            var nameEnd = open
            if nameEnd > range.lowerBound, bytes[nameEnd - 1] == UInt8(ascii: " ") { nameEnd -= 1 }
            var nameStart = nameEnd
            while nameStart > range.lowerBound,
                Self.isLetter(bytes[nameStart - 1]) || bytes[nameStart - 1] == UInt8(ascii: ".")
            {
                nameStart -= 1
            }
            guard nameStart < nameEnd, nameEnd - nameStart <= 5 else { continue }
            let call: Call
            switch String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self) {
            case "GPS": call = .gps
            case "G.PRY": call = .gimbalAttitude
            case "F.PRY": call = .flightAttitude
            default: continue
            }
            var arguments: [Range<Int>] = []
            var start = index
            while index < range.upperBound, bytes[index] != UInt8(ascii: ")") {
                if bytes[index] == UInt8(ascii: ",") {
                    arguments.append(start..<index)
                    start = index + 1
                }
                index += 1
            }
            guard index < range.upperBound else { return }  // not closed: the cue says it is cut short
            arguments.append(start..<index)
            if calls[call] == nil { calls[call] = arguments }
            index += 1
        }
    }

    /// Comma-separated `H value` and `H.S value` items outside parentheses (`D 221.21m, H 200.70m`).
    private mutating func readItems(_ bytes: [UInt8], _ range: Range<Int>) {
        var depth = 0
        var start = range.lowerBound
        func take(_ item: Range<Int>) {
            var index = item.lowerBound
            while index < item.upperBound, Self.isSpace(bytes[index]) { index += 1 }
            guard index < item.upperBound, bytes[index] == UInt8(ascii: "H") else { return }
            if index + 1 < item.upperBound, bytes[index + 1] == UInt8(ascii: " ") {
                if height == nil { height = (index + 2)..<item.upperBound }
            } else if index + 3 < item.upperBound, bytes[index + 1] == UInt8(ascii: "."),
                bytes[index + 2] == UInt8(ascii: "S"), bytes[index + 3] == UInt8(ascii: " ")
            {
                if horizontalSpeed == nil { horizontalSpeed = (index + 4)..<item.upperBound }
            }
        }
        for index in range {
            switch bytes[index] {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth = max(0, depth - 1)
            case UInt8(ascii: ",") where depth == 0:
                take(start..<index)
                start = index + 1
            default: break
            }
        }
        take(start..<range.upperBound)
    }
}
