import ArcaptureCore
import Foundation

/// An ISO 8601 time in a text track (CSV, KML), with its zone, or without one, then read in the
/// zone `TZ` names (a phone or an app logs its local time): whoever reads it says so.
enum ZonedTimeText {
    /// The instant `text` means and, when it had no zone, the zone it was read in (abbreviation
    /// and seconds east of UTC); nil for anything but `YYYY-MM-DDTHH:MM:SS[.f][Z|±HH:MM]` (a space
    /// may replace `T`).
    static func parse(_ text: String) -> (date: Date, localZone: (name: String, offset: Int)?)? {
        guard text.count >= 19 else { return nil }
        let clock = text.dropFirst(10)
        let zoned = clock.hasSuffix("Z") || clock.hasSuffix("z") || clock.contains("+") || clock.contains("-")
        guard let parsed = UTCTime.parse(text) else { return nil }
        if zoned { return (parsed, nil) }
        guard let local = LocalTime.instant(ofWallClock: parsed) else { return nil }
        return (local.date, (local.zone, local.offsetSeconds))
    }

    /// The warning for `count` times without a zone read in `zone`, `example` naming the first.
    static func warning(count: Int, example: String, zone: (name: String, offset: Int)) -> String {
        "\(count) times have no zone (\(example)): read as local time in this system's time zone (\(zone.name), "
            + "\(CaptureTimeSource.offsetText(zone.offset))); set TZ to the zone they were logged in if it was another"
    }
}
