/// Where a capture time read from footage came from, and so how far to trust its zone: what a run
/// says so that a user can tell a clock that was read from one that was assumed.
///
/// EXIF times are the camera's wall clock; only `OffsetTimeOriginal` (EXIF 2.31) says its zone,
/// and most cameras do not write it. A video container's `creation_time` is UTC by the format's
/// definition, but many cameras write their local time there.
public enum CaptureTimeSource: Hashable, Sendable, CustomStringConvertible {
    /// An EXIF time with its `OffsetTimeOriginal` (such as `+02:00`).
    case exifOffset(String)
    /// An EXIF time without a zone, placed by the photo's own GPS date and time stamps (UTC): the
    /// zone they imply, `offsetSeconds` east of UTC, rounded to a quarter hour.
    case exifZoneFromGPS(offsetSeconds: Int)
    /// An EXIF time without a zone, read in this system's time zone (`TZ`): its abbreviation
    /// (`EET`) and offset east of UTC at that time.
    case exifInLocalZone(zone: String, offsetSeconds: Int)
    /// A video's GPS clock (GoPro's GPMF telemetry): UTC.
    case gpsClock
    /// A video's GPS clock in its CAMM track (Google's Camera Motion Metadata): UTC.
    case cammGPSClock
    /// The GPS time stamps of a video's DJI metadata track (`djmd`: Osmo Action, Avata 2, or an
    /// XTRA camera's `xtmd`), whole seconds read as UTC, as GPS gives it.
    case djiGPSTime
    /// The GPS records of a video's Insta360 trailer: UTC, not tied to the frames.
    case insta360GPSClock
    /// A video's GPS clock as ExifTool reads it from metadata arcapture does not read itself (a
    /// dashcam's): UTC.
    case exifToolGPSClock
    /// Apple's `com.apple.quicktime.creationdate`, which carries its zone (`+0200`).
    case appleCreationDate(String)
    /// The drone's clock in a DJI subtitle file (`.SRT`), its local wall-clock time with no zone,
    /// read in this system's time zone (`TZ`): its abbreviation and offset east of UTC then.
    case subtitleClockInLocalZone(zone: String, offsetSeconds: Int)
    /// A video container's `creation_time` (MP4's mvhd, Matroska's DateUTC): labelled UTC, often
    /// the camera's local time.
    case containerTime

    /// Whether the source stated the time's zone (or is a UTC clock) rather than it being assumed.
    public var statesZone: Bool {
        switch self {
        case .exifOffset, .exifZoneFromGPS, .gpsClock, .cammGPSClock, .djiGPSTime, .insta360GPSClock,
            .exifToolGPSClock, .appleCreationDate:
            true
        case .exifInLocalZone, .subtitleClockInLocalZone, .containerTime: false
        }
    }

    /// The offset east of UTC in which the camera showed this time, when the source says it: a
    /// banner shows the time in it, as the camera recorded it. Nil for a UTC clock and for an
    /// assumed zone (the banner then uses `TZ`, which is the one assumed).
    public var utcOffset: Int? {
        switch self {
        case .exifOffset(let text), .appleCreationDate(let text): Self.offsetSeconds(text)
        case .exifZoneFromGPS(let offset): offset
        case .exifInLocalZone, .subtitleClockInLocalZone, .gpsClock, .cammGPSClock, .djiGPSTime, .insta360GPSClock,
            .exifToolGPSClock, .containerTime:
            nil
        }
    }

    /// `+03:00`, `-0530` or `Z` in seconds east of UTC; nil for anything else.
    static func offsetSeconds(_ text: String) -> Int? {
        if text == "Z" || text == "z" { return 0 }
        let bytes = Array(text.utf8)
        guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = bytes.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let value = digits.map { Int($0) - 48 }
        let seconds = (value[0] * 10 + value[1]) * 3600 + (value[2] * 10 + value[3]) * 60
        guard seconds <= 14 * 3600 else { return nil }
        return sign == UInt8(ascii: "-") ? -seconds : seconds
    }

    /// A phrase: `the video's GPS clock (its GPMF telemetry)`.
    public var description: String {
        switch self {
        case .exifOffset(let offset):
            "the EXIF time with its offset (OffsetTimeOriginal \(offset))"
        case .exifZoneFromGPS(let offset):
            "the EXIF time, the camera's local time, at \(Self.offsetText(offset)) as the photo's GPS time stamp gives"
        case .exifInLocalZone(let zone, let offset):
            "the EXIF time, which has no zone: read as local time in this system's time zone ("
                + (zone == Self.offsetText(offset) ? zone : "\(zone), \(Self.offsetText(offset))")
                + "); set TZ to the zone the camera's clock was set to if it was another"
        case .subtitleClockInLocalZone(let zone, let offset):
            "the drone's clock in its DJI subtitles, which has no zone: read as local time in this system's time zone ("
                + (zone == Self.offsetText(offset) ? zone : "\(zone), \(Self.offsetText(offset))")
                + "); set TZ to the zone the drone's app was in if it was another"
        case .gpsClock:
            "the video's GPS clock (its GPMF telemetry)"
        case .cammGPSClock:
            "the video's GPS clock (its CAMM track)"
        case .djiGPSTime:
            "the GPS time stamps in the video's DJI (or XTRA) metadata track, read as UTC"
        case .insta360GPSClock:
            "the GPS clock of the video's Insta360 trailer"
        case .exifToolGPSClock:
            "the video's GPS clock, as ExifTool reads its metadata"
        case .appleCreationDate(let offset):
            "the video's com.apple.quicktime.creationdate (with its zone, \(offset))"
        case .containerTime:
            "the video's creation_time, labelled UTC (cameras often write local time there: check the overlap)"
        }
    }

    /// `UTC+02:00`, `UTC-03:30`, `UTC`.
    public static func offsetText(_ seconds: Int) -> String {
        guard seconds != 0 else { return "UTC" }
        let minutes = abs(seconds) / 60
        let hours = minutes / 60
        return
            "UTC\(seconds < 0 ? "-" : "+")\(hours < 10 ? "0" : "")\(hours):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
    }
}
