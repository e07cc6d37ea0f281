import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Local-time formatting with strftime(3), in the zone `TZ` names (as fswebcam and date(1) do).
public enum LocalTime {
    /// `date` in local time with a strftime(3) `format`; an empty string when the result would
    /// not fit 1 KiB.
    ///
    /// - Parameters:
    ///   - format: a strftime(3) format.
    ///   - date: the instant to show.
    ///   - utcOffset: seconds east of UTC to show the time in (a photo's stated zone, so its
    ///     banner shows the time its camera recorded); nil: the zone `TZ` names. `%Z` then prints
    ///     the offset (`+03`, `+0530`), `%z` it as `+0300`.
    public static func format(_ format: String, _ date: Date, utcOffset: Int? = nil) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        var buffer = [CChar](repeating: 0, count: 1024)
        guard let utcOffset else {
            guard localtime_r(&seconds, &parts) != nil else { return "" }
            let count = strftime(&buffer, buffer.count, format, &parts)
            return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        seconds += time_t(utcOffset)
        guard gmtime_r(&seconds, &parts) != nil else { return "" }
        parts.tm_gmtoff = utcOffset
        let minutes = abs(utcOffset) / 60
        let name =
            (utcOffset < 0 ? "-" : "+")
            + String(format: minutes % 60 == 0 ? "%02d" : "%02d%02d", minutes / 60, minutes % 60)
        let count = name.withCString { zone in
            parts.tm_zone = zone
            return strftime(&buffer, buffer.count, format, &parts)
        }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The instant a wall-clock reading means in the zone `TZ` names (as date(1) reads one), with
    /// the zone's abbreviation and its offset east of UTC then. `wallClock` holds the reading as if
    /// it were UTC (`2024:06:01 12:00:00` as 12:00Z); its fraction of a second is kept. In a
    /// daylight-saving change's repeated hour, mktime(3) chooses; in its skipped hour, the reading
    /// is taken as standard time.
    ///
    /// - Returns: nil when the C library cannot place it (a year it cannot represent).
    public static func instant(ofWallClock wallClock: Date) -> (date: Date, zone: String, offsetSeconds: Int)? {
        let whole = wallClock.timeIntervalSince1970.rounded(.down)
        var seconds = time_t(whole)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return nil }
        parts.tm_isdst = -1  // the zone's rules decide whether summer time applies
        let local = mktime(&parts)
        guard local != -1 || parts.tm_year == 69 else { return nil }
        let zone = parts.tm_zone.map { String(cString: $0) } ?? "local"
        return (
            Date(timeIntervalSince1970: Double(local) + (wallClock.timeIntervalSince1970 - whole)), zone,
            Int(parts.tm_gmtoff)
        )
    }
}
