import Foundation

/// Reads and writes the UTC timestamps that GPX files, gpsd, sidecar files and `--start` use.
///
/// Parsing is written out instead of using Foundation's ISO 8601 styles because real files mix forms
/// that one style does not accept together: with and without fractional seconds, `Z`, `+02:00` or
/// `+0200`, and no zone at all (GPX times are UTC by definition). It is also exact to the
/// nanosecond digit and does not depend on the process's locale or time zone.
public enum UTCTime {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM|±HHMM]` (a space may replace `T`); a time
    /// without a zone is UTC. Returns nil for anything else, including impossible dates.
    public static func parse(_ text: some StringProtocol) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            expect("Tt "), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"),
            let second = digits(2), hour < 24, minute < 60, second < 61,
            let days = daysSince1970(year: year, month: month, day: day)
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if index < bytes.count {
            if expect("Zz") {
                // UTC
            } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let hours = digits(2) else { return nil }
                _ = expect(":")
                guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
        }
        guard index == bytes.count else { return nil }
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
        return Date(timeIntervalSince1970: seconds + fraction)
    }

    /// `2026-11-29T18:04:05.123Z`: UTC with milliseconds.
    public static func format(_ date: Date) -> String {
        let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let milliseconds = Int(totalMilliseconds.truncatingRemainder(dividingBy: 1000) + 1000) % 1000
        let seconds = Int(((totalMilliseconds - Double(milliseconds)) / 1000).rounded())
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", year, month, day, secondOfDay / 3600,
            secondOfDay / 60 % 60, secondOfDay % 60, milliseconds)
    }

    /// Days since 1970-01-01 of a civil date (Howard Hinnant's `days_from_civil`), nil when the
    /// date does not exist (a month of 13, February 30) or the year is outside 1900–2199.
    public static func daysSince1970(year: Int, month: Int, day: Int) -> Int? {
        guard (1...12).contains(month), (1900...2199).contains(year), day >= 1,
            day <= daysIn(month: month, year: year)
        else { return nil }
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day number (`civil_from_days`).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
