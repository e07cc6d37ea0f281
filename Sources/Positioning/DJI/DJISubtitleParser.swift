import Foundation

/// Splits a DJI subtitle file into ``DJISubtitleCue``s and reads each cue's values, on the file's
/// bytes (see ``DJISubtitleFields`` for why).
///
/// A cue starts at a line holding only its number followed by its timing line
/// (`00:00:01,000 --> 00:00:02,000`); in the one variant without timing lines (an early Mavic 2),
/// by its number followed by the drone's date and time. A cue's text runs to the next cue's start,
/// not to the next blank line: the multi-line dialect of the Mavic 3 Enterprise and Matrice 300
/// RTK has a blank line, then a `0`, inside each cue.
///
/// The dialects (`samples/dji-srt/` has a sample of each; its SOURCES.md lists them):
/// - bracketed values (`[latitude: 41.42] [longitude: 2.23]`, `[longtitude : …]` with DJI's typo),
///   with `[rel_alt: … abs_alt: …]` or `[altitude: …]`, and on recent models `[gb_yaw: …]`,
///   `[drone_yaw: …]` or `[Drone: Yaw:…]`;
/// - `GPS(longitude,latitude,satellites)` with `BAROMETER:`, `Hb:` or `H …m` (Mavic Pro, Mini,
///   Phantom 4; a satellite count of 4–7 beside `N/A` positions shows the third value is not a
///   height), and the Phantom 4 RTK's `F.PRY`/`G.PRY` attitudes (pitch, roll, yaw);
/// - Matrice 300's `GPS(latitude,longitude,altitude M)`, latitude first, told apart by the unit
///   `M` after its third value (its values are within ±90 either way, so the order cannot be told
///   from them).
enum DJISubtitleParser {
    /// The cues of `data`, and whether the file has timing lines.
    static func cues(_ data: Data) -> (cues: [DJISubtitleCue], timed: Bool) {
        let bytes = [UInt8](data)
        let lines = lineRanges(bytes)
        let timed = lines.contains { find(bytes, $0, arrow) != nil }
        var cues: [DJISubtitleCue] = []
        var bodyLines: [Int] = []
        var current: (cue: DJISubtitleCue, body: Int)?
        func finish(at end: Int) {
            guard let (found, bodyStart) = current else { return }
            var cue = found
            let range = bodyStart..<max(bodyStart, end)
            read(bytes, range, into: &cue)
            cues.append(cue)
            bodyLines.append(nonBlankLines(bytes, range))
            current = nil
        }
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if isCueNumber(bytes, line) {
                let next = index + 1 < lines.count ? lines[index + 1] : nil
                if timed, let next, find(bytes, next, arrow) != nil {
                    finish(at: line.lowerBound)
                    var cue = DJISubtitleCue(number: cues.count + 1, line: index + 1)
                    cue.videoTime = timingStart(bytes, next)
                    if cue.videoTime == nil {
                        cue.problem = "its timing line \"\(text(bytes, next, limit: 40))\" cannot be read"
                        cue.isDamaged = true
                    }
                    current = (cue, next.upperBound)
                    index += 2
                    continue
                }
                if !timed, let next, dateTime(bytes, next) != nil {
                    finish(at: line.lowerBound)
                    current = (DJISubtitleCue(number: cues.count + 1, line: index + 1), next.lowerBound)
                    index += 1
                    continue
                }
                let rest = lines[(index + 1)...].allSatisfy { nonBlankLines(bytes, $0) == 0 }
                if rest {
                    // A cue's number and nothing after it: the file was cut off.
                    finish(at: line.lowerBound)
                    var cue = DJISubtitleCue(number: cues.count + 1, line: index + 1)
                    cue.problem = "cut off after its number (the file ends there)"
                    cue.isDamaged = true
                    cues.append(cue)
                    bodyLines.append(0)
                    return (cues, timed)
                }
            }
            index += 1
        }
        finish(at: bytes.count)
        // The last cue, without a position, was cut off when the file ends inside a line or it has
        // fewer lines than the cue before it.
        let endsLine = bytes.last == UInt8(ascii: "\n") || bytes.last == UInt8(ascii: "\r")
        if let last = cues.indices.last, !cues[last].hasPosition, cues[last].problem != nil,
            !endsLine || (last > 0 && bodyLines[last] < bodyLines[last - 1])
        {
            cues[last].problem = (cues[last].problem ?? "") + " (the file ends inside it)"
            cues[last].isDamaged = true
        }
        return (cues, timed)
    }

    private static let arrow = Array("-->".utf8)

    /// Each line's range, without its `\n` or `\r\n` (a byte-order mark before the first skipped).
    static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") {
                let end = index > start && bytes[index - 1] == UInt8(ascii: "\r") ? index - 1 : index
                lines.append(start..<end)
                start = index + 1
            }
            index += 1
        }
        if start < bytes.count {
            lines.append(start..<(bytes[bytes.count - 1] == UInt8(ascii: "\r") ? bytes.count - 1 : bytes.count))
        }
        return lines
    }

    /// Where `needle` first occurs in `range` of `bytes`.
    static func find(_ bytes: [UInt8], _ range: Range<Int>, _ needle: [UInt8]) -> Int? {
        guard range.count >= needle.count, let first = needle.first else { return nil }
        var index = range.lowerBound
        let last = range.upperBound - needle.count
        while index <= last {
            if bytes[index] == first {
                var matched = 1
                while matched < needle.count, bytes[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// Whether the line holds only digits (spaces around them allowed).
    static func isCueNumber(_ bytes: [UInt8], _ line: Range<Int>) -> Bool {
        var digits = 0
        for index in line {
            let byte = bytes[index]
            if DJISubtitleFields.isDigit(byte) {
                digits += 1
            } else if !DJISubtitleFields.isSpace(byte) {
                return false
            }
        }
        return digits > 0
    }

    static func nonBlankLines(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        var count = 0
        var blank = true
        for index in range {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                if !blank { count += 1 }
                blank = true
            } else if !DJISubtitleFields.isSpace(byte) {
                blank = false
            }
        }
        return blank ? count : count + 1
    }

    /// At most `limit` characters of `range`, trimmed, for a message.
    static func text(_ bytes: [UInt8], _ range: Range<Int>, limit: Int, fromEnd: Bool = false) -> String {
        var trimmed = range
        while !trimmed.isEmpty, DJISubtitleFields.isSpace(bytes[trimmed.upperBound - 1]) {
            trimmed = trimmed.lowerBound..<(trimmed.upperBound - 1)
        }
        let slice = fromEnd ? bytes[trimmed].suffix(limit) : bytes[trimmed].prefix(limit)
        return String(decoding: slice, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The decimal digits at `index` (at most `maximumDigits`, before `end`), moving past them: their
    /// value and how many there were; nil when there is none.
    static func digitRun(_ bytes: [UInt8], _ index: inout Int, end: Int, maximumDigits: Int) -> (
        value: Int, digits: Int
    )? {
        var value = 0
        var digits = 0
        while index < end, digits < maximumDigits, DJISubtitleFields.isDigit(bytes[index]) {
            value = value * 10 + Int(bytes[index] - 48)
            digits += 1
            index += 1
        }
        return digits == 0 ? nil : (value, digits)
    }

    /// The first time of a timing line, `HH:MM:SS,mmm --> …`, in seconds.
    static func timingStart(_ bytes: [UInt8], _ line: Range<Int>) -> Double? {
        guard let arrowAt = find(bytes, line, arrow) else { return nil }
        var index = line.lowerBound
        while index < arrowAt, DJISubtitleFields.isSpace(bytes[index]) { index += 1 }
        func number(maximumDigits: Int) -> (value: Int, digits: Int)? {
            digitRun(bytes, &index, end: arrowAt, maximumDigits: maximumDigits)
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < arrowAt, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let hours = number(maximumDigits: 4), expect(UInt8(ascii: ":")), let minutes = number(maximumDigits: 2),
            expect(UInt8(ascii: ":")), let seconds = number(maximumDigits: 2), minutes.value < 60, seconds.value < 61
        else { return nil }
        var value = Double(hours.value * 3600 + minutes.value * 60 + seconds.value)
        if expect(UInt8(ascii: ",")) || expect(UInt8(ascii: ".")) {
            guard let fraction = number(maximumDigits: 9) else { return nil }
            value += Double(fraction.value) / pow(10, Double(fraction.digits))
        }
        while index < arrowAt, DJISubtitleFields.isSpace(bytes[index]) { index += 1 }
        return index == arrowAt ? value : nil
    }

    /// The first date and time in `range`, read as if UTC: `2021-12-25 12:27:52.373`,
    /// `2022-08-07 13:40:40,774,808` (milliseconds, microseconds), `2017.08.05 14:11:51`,
    /// `2017.8.5 14:11:51`.
    static func dateTime(_ bytes: [UInt8], _ range: Range<Int>) -> Date? {
        var start = range.lowerBound
        while start + 14 <= range.upperBound {
            if DJISubtitleFields.isDigit(bytes[start]), let date = dateTime(bytes, at: start, end: range.upperBound) {
                return date
            }
            start += 1
        }
        return nil
    }

    private static func dateTime(_ bytes: [UInt8], at start: Int, end: Int) -> Date? {
        guard start == 0 || !DJISubtitleFields.isDigit(bytes[start - 1]) else { return nil }
        var index = start
        func number(maximumDigits: Int) -> (value: Int, digits: Int)? {
            digitRun(bytes, &index, end: end, maximumDigits: maximumDigits)
        }
        func expect(_ options: UInt8...) -> UInt8? {
            guard index < end, options.contains(bytes[index]) else { return nil }
            index += 1
            return bytes[index - 1]
        }
        guard let year = number(maximumDigits: 4), year.digits == 4,
            let separator = expect(UInt8(ascii: "-"), UInt8(ascii: ".")),
            let month = number(maximumDigits: 2), expect(separator) != nil, let day = number(maximumDigits: 2),
            expect(UInt8(ascii: " ")) != nil, let hour = number(maximumDigits: 2),
            expect(UInt8(ascii: ":")) != nil, let minute = number(maximumDigits: 2),
            expect(UInt8(ascii: ":")) != nil, let second = number(maximumDigits: 2),
            (1...12).contains(month.value), (1...31).contains(day.value), hour.value < 24, minute.value < 60,
            second.value < 61
        else { return nil }
        var fraction = 0.0
        if let mark = expect(UInt8(ascii: "."), UInt8(ascii: ",")), let part = number(maximumDigits: 9) {
            fraction = Double(part.value) / pow(10, Double(part.digits))
            // `,774,808`: milliseconds, then microseconds.
            if mark == UInt8(ascii: ","), part.digits == 3, expect(UInt8(ascii: ",")) != nil,
                let micro = number(maximumDigits: 3), micro.digits == 3
            {
                fraction += Double(micro.value) / 1e6
            }
        }
        let days = daysFromCivil(year: year.value, month: month.value, day: day.value)
        let seconds = days * 86_400 + hour.value * 3600 + minute.value * 60 + second.value
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`):
    /// a calendar per cue would be most of the reading's time.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Reads a cue's values (`range` of `bytes`: its text after the timing line) into it.
    static func read(_ bytes: [UInt8], _ range: Range<Int>, into cue: inout DJISubtitleCue) {
        cue.wallClock = dateTime(bytes, range)
        // A line cut short (a card pulled, a file truncated in a copy) leaves a bracket open.
        var square = 0
        var round = 0
        for index in range {
            switch bytes[index] {
            case UInt8(ascii: "["): square += 1
            case UInt8(ascii: "]"): square -= 1
            case UInt8(ascii: "("): round += 1
            case UInt8(ascii: ")"): round -= 1
            default: break
            }
        }
        if square != 0 || round != 0, cue.problem == nil {
            cue.problem =
                "cut short: a bracket is left open (\"…\(text(bytes, range, limit: 24, fromEnd: true))\")"
            cue.isDamaged = true
        }
        let fields = DJISubtitleFields(bytes, range)
        func number(_ value: Range<Int>?) -> Double? { value.flatMap { DJISubtitleFields.number(bytes, $0) } }
        // Position.
        var position: (latitude: Range<Int>, longitude: Range<Int>)?
        if let latitude = fields[.latitude] {
            cue.layout = "[latitude: …]"
            if let longitude = fields[.longitude] ?? fields[.longtitude] {
                position = (latitude, longitude)
            } else if cue.problem == nil {
                cue.problem = "a latitude without a longitude"
                cue.isDamaged = true
            }
        } else if let gps = fields.calls[.gps], gps.count >= 2 {
            let third = gps.count >= 3 ? text(bytes, gps[2], limit: 16) : ""
            if third.hasSuffix("M") {
                position = (gps[0], gps[1])
                cue.layout = "GPS(lat,lon,alt M)"
            } else {
                position = (gps[1], gps[0])
                cue.layout = "GPS(lon,lat,satellites)"
            }
            cue.heightAboveTakeoff = number(fields[.barometer] ?? fields[.hb] ?? fields.height)
        } else if cue.problem == nil {
            cue.problem = "no GPS position among its values"
        }
        if cue.problem == nil, let position {
            if DJISubtitleFields.isNotAvailable(bytes, position.latitude)
                || DJISubtitleFields.isNotAvailable(bytes, position.longitude)
            {
                cue.problem = "no fix (GPS N/A)"
            } else if let latitude = number(position.latitude), let longitude = number(position.longitude) {
                if !(-90...90).contains(latitude) || !(-180...180).contains(longitude) {
                    cue.problem =
                        "latitude \(text(bytes, position.latitude, limit: 20)), longitude "
                        + "\(text(bytes, position.longitude, limit: 20)) is not a place on Earth"
                    cue.isDamaged = true
                } else if latitude == 0, longitude == 0 {
                    cue.problem = "no fix (0, 0)"
                } else {
                    cue.latitude = latitude
                    cue.longitude = longitude
                    cue.coordinateDecimals = min(
                        DJISubtitleFields.decimals(bytes, position.latitude),
                        DJISubtitleFields.decimals(bytes, position.longitude))
                }
            } else {
                cue.problem =
                    "its position (\(text(bytes, position.latitude, limit: 20)), "
                    + "\(text(bytes, position.longitude, limit: 20))) cannot be read"
                cue.isDamaged = true
            }
        }
        // Heights.
        cue.altitudeAboveSeaLevel = number(fields[.absoluteAltitude] ?? fields[.altitude])
        if let relative = number(fields[.relativeAltitude]) { cue.heightAboveTakeoff = relative }
        // Attitudes.
        if let yaw = number(fields[.gimbalYaw]), let pitch = number(fields[.gimbalPitch]) {
            cue.gimbal = (yaw, pitch, number(fields[.gimbalRoll]) ?? 0)
        } else if let attitude = fields.calls[.gimbalAttitude], attitude.count == 3,
            let pitch = number(attitude[0]), let roll = number(attitude[1]), let yaw = number(attitude[2])
        {
            cue.gimbal = (yaw, pitch, roll)
        }
        if let yaw = number(fields[.droneYaw] ?? fields[.yaw]) {
            cue.airframeYaw = yaw
        } else if let attitude = fields.calls[.flightAttitude], attitude.count == 3, let yaw = number(attitude[2]) {
            cue.airframeYaw = yaw
        }
        cue.horizontalSpeed = number(fields.horizontalSpeed)
    }
}
