import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Local-time formatting with strftime(3), in the zone `TZ` names (as fswebcam and date(1) do).
public enum LocalTime {
    /// `date` in local time with a strftime(3) `format`; an empty string when the result would
    /// not fit 1 KiB.
    public static func format(_ format: String, _ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "" }
        var buffer = [CChar](repeating: 0, count: 1024)
        let count = strftime(&buffer, buffer.count, format, &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
