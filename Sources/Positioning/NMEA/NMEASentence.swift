/// One NMEA 0183 sentence, checked and split: `$GPGGA,…*47` → talker `GP`, type `GGA`, fields.
///
/// Parsing verifies the checksum (XOR of every byte between `$` and `*`) and rejects sentences
/// without one: a receiver log is only trustworthy sentence by sentence, and a line cut short by a
/// serial read is far more common than a receiver that omits checksums.
struct NMEASentence: Hashable, Sendable {
    /// The talker: `GP`, `GN`, `GL`, `GA`, `GB`, `GQ`, `SD`…; `P` for proprietary sentences.
    var talker: String
    /// The sentence type: `GGA`, `RMC`…; for proprietary sentences the rest of the address (`ASHR`).
    var type: String
    /// The comma-separated fields after the address.
    var fields: [Substring]

    /// Why a line is not a usable sentence.
    enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// The line does not start with `$` or `!`: a comment, a gpsd JSON line or noise.
        case notASentence
        /// There is no `*HH` at the end: the line was probably cut short.
        case missingChecksum
        /// The checksum does not match the bytes.
        case badChecksum(computed: UInt8, stated: String)
        /// The address field is not 5 letters or digits (or `P` plus a maker's code).
        case badAddress(String)

        var description: String {
            switch self {
            case .notASentence: "not an NMEA sentence"
            case .missingChecksum: "no checksum (the line may be cut short)"
            case .badChecksum(let computed, let stated):
                "bad checksum: the bytes give \(String(computed, radix: 16, uppercase: true)), the line says \(stated)"
            case .badAddress(let address): "bad address field '\(address)'"
            }
        }
    }

    /// Parses one line (without or with its CR/LF).
    static func parse(_ line: Substring) -> Result<NMEASentence, Problem> {
        var text = line
        while let last = text.last, last == "\r" || last == "\n" || last == " " { text.removeLast() }
        guard let first = text.first, first == "$" || first == "!" else { return .failure(.notASentence) }
        let bytes = Array(text.utf8)
        guard bytes.count >= 4, let star = bytes.lastIndex(of: UInt8(ascii: "*")), star + 3 == bytes.count else {
            return .failure(.missingChecksum)
        }
        let computed = bytes[1..<star].reduce(UInt8(0), ^)
        let statedText = String(decoding: bytes[(star + 1)...], as: UTF8.self)
        guard let stated = UInt8(statedText, radix: 16) else {
            return .failure(.badChecksum(computed: computed, stated: statedText))
        }
        guard stated == computed else { return .failure(.badChecksum(computed: computed, stated: statedText)) }

        let body = String(decoding: bytes[1..<star], as: UTF8.self)
        var parts = body.split(separator: ",", omittingEmptySubsequences: false)
        let address = String(parts.removeFirst())
        guard address.count >= 3, address.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return .failure(.badAddress(address))
        }
        if address.hasPrefix("P") {
            return .success(NMEASentence(talker: "P", type: String(address.dropFirst()), fields: parts))
        }
        guard address.count == 5 else { return .failure(.badAddress(address)) }
        return .success(
            NMEASentence(talker: String(address.prefix(2)), type: String(address.dropFirst(2)), fields: parts))
    }

    /// Field `index` (0-based, after the address), nil when absent or empty.
    subscript(index: Int) -> Substring? {
        guard index < fields.count, !fields[index].isEmpty else { return nil }
        return fields[index]
    }

    /// Field `index` as a number, nil when absent, empty or not a finite number.
    func number(_ index: Int) -> Double? {
        guard let text = self[index], let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Field `index` as a whole number (`1`, `06`, `2026`, or `1.0` as some receivers write it), nil
    /// when absent, fractional or beyond `Int`: `Int(_:)` of a `Double` traps on `1e300`, which a
    /// damaged line can hold.
    func integer(_ index: Int) -> Int? {
        number(index).flatMap { Int(exactly: $0) }
    }

    /// A UTC time of day `hhmmss[.ss]` at `index`, in seconds since midnight.
    func timeOfDay(_ index: Int) -> Double? {
        guard let text = self[index], text.count >= 6 else { return nil }
        let digits = Array(text.utf8)
        func twoDigits(_ at: Int) -> Int? {
            guard (48...57).contains(digits[at]), (48...57).contains(digits[at + 1]) else { return nil }
            return Int(digits[at] - 48) * 10 + Int(digits[at + 1] - 48)
        }
        guard let hours = twoDigits(0), let minutes = twoDigits(2), let seconds = Double(text.dropFirst(4)),
            hours < 24, minutes < 60, seconds >= 0, seconds < 61
        else { return nil }
        return Double(hours * 3600 + minutes * 60) + seconds
    }

    /// A latitude or longitude `dddmm.mmmm` at `index` with its hemisphere at `index + 1`, in degrees
    /// (south and west negative).
    func angle(_ index: Int, positive: Character, negative: Character, limit: Double) -> Double? {
        guard let text = self[index], let raw = Double(text), raw >= 0, let hemisphere = self[index + 1]?.first else {
            return nil
        }
        let degrees = (raw / 100).rounded(.towardZero)
        let minutes = raw - degrees * 100
        guard minutes < 60 else { return nil }
        let value = degrees + minutes / 60
        guard value <= limit else { return nil }
        switch hemisphere {
        case positive: return value
        case negative: return -value
        default: return nil
        }
    }
}
