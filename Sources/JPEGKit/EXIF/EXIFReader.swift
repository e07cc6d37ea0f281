import ArcaptureCore
import Foundation

/// Reads the capture time from a JPEG's EXIF block (APP1 `Exif\0\0`, a TIFF structure).
///
/// Written here rather than taken from libexif: arcapture needs three ASCII tags (DateTimeOriginal,
/// SubSecTimeOriginal, OffsetTimeOriginal, with IFD0's DateTime as a fallback), and a bounds-checked
/// walk of two IFDs is about a hundred lines, where libexif would add a C dependency and a shim
/// for them. Every offset is checked against the block, so a damaged EXIF block gives nil, never a
/// crash.
public enum EXIFReader {
    /// The capture time of the JPEG in `bytes`, with where its zone came from.
    ///
    /// EXIF times are the camera's local wall clock; only OffsetTimeOriginal (EXIF 2.31) says which
    /// zone. Without it, the zone is the one the photo's GPS date and time stamps (UTC) imply, when
    /// it has them and they agree with the wall clock to within three minutes of a quarter-hour
    /// zone; else the time is read in this system's zone (`TZ`), never as UTC. The
    /// `CaptureTime.source` says which, so a run can say so.
    public static func captureTime(inJPEG bytes: some Collection<UInt8>) -> CaptureTime? {
        guard let tiff = exifBlock(Array(bytes.prefix(256 * 1024))) else { return nil }
        return captureTime(tiff: tiff)
    }

    /// The TIFF structure inside the first APP1 `Exif` segment.
    static func exifBlock(_ jpeg: [UInt8]) -> [UInt8]? {
        headerSegment(in: jpeg) { marker, range in EXIFSegment.isEXIF(marker: marker, range: range, in: jpeg) }
            .map { Array(jpeg[($0.lowerBound + 10)..<$0.upperBound]) }
    }

    /// The first segment before the scan (marker to its end) that `matches` (its marker and
    /// range), walking the lengths with every one checked against `jpeg`; nil when none does or
    /// the header is damaged. EXIF and XMP (``XMPPacket``) are found by it.
    static func headerSegment(in jpeg: [UInt8], matching matches: (UInt8, Range<Int>) -> Bool) -> Range<Int>? {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            guard length >= 2, index + 2 + length <= jpeg.count else { return nil }
            let range = index..<(index + 2 + length)
            if matches(marker, range) { return range }
            index += 2 + length
        }
        return nil
    }

    static func captureTime(tiff bytes: [UInt8]) -> CaptureTime? {
        guard let tiff = TIFFStructure(bytes), let first = tiff.u32(4) else { return nil }
        let ifd0 = tiff.entries(first)
        let exif = ifd0[0x8769].flatMap { tiff.u32($0.field) }.map(tiff.entries) ?? [:]
        guard let stamp = tiff.ascii(exif[0x9003]) ?? tiff.ascii(ifd0[0x0132]) else { return nil }
        // "YYYY:MM:DD HH:MM:SS" → ISO 8601.
        let parts = stamp.split(separator: " ")
        guard parts.count == 2 else { return nil }
        var iso = parts[0].replacingOccurrences(of: ":", with: "-") + "T" + parts[1]
        if let subSeconds = tiff.ascii(exif[0x9291]), !subSeconds.isEmpty, subSeconds.allSatisfy(\.isNumber) {
            iso += "." + subSeconds
        }
        if let offset = tiff.ascii(exif[0x9011]), let date = UTCTime.parse(iso + offset) {
            return CaptureTime(date: date, source: .exifOffset(offset))
        }
        // The wall clock, read as if it were UTC, then placed in its zone.
        guard let wallClock = UTCTime.parse(iso) else { return nil }
        if let offset = gpsZoneOffset(tiff: tiff, ifd0: ifd0, wallClock: wallClock) {
            return CaptureTime(
                date: wallClock.addingTimeInterval(-Double(offset)), source: .exifZoneFromGPS(offsetSeconds: offset))
        }
        guard let local = LocalTime.instant(ofWallClock: wallClock) else { return nil }
        return CaptureTime(
            date: local.date, source: .exifInLocalZone(zone: local.zone, offsetSeconds: local.offsetSeconds))
    }

    /// The zone (seconds east of UTC) that the GPS date and time stamps (UTC, GPSDateStamp and
    /// GPSTimeStamp) imply for the camera's `wallClock`, rounded to a quarter hour, when both are
    /// there and the difference is within three minutes of such a zone (a receiver stamps the
    /// time of its last fix, which can lag the shutter; a stamp further off is not trusted to
    /// give a zone) and within ±14 h.
    static func gpsZoneOffset(tiff: TIFFStructure, ifd0: [Int: TIFFStructure.Entry], wallClock: Date) -> Int? {
        guard let pointer = ifd0[0x8825].flatMap({ tiff.u32($0.field) }) else { return nil }
        let gps = tiff.entries(pointer)
        guard let day = tiff.ascii(gps[0x1D]), let clock = tiff.rationals(gps[0x07]), clock.count == 3,
            clock.allSatisfy({ $0.isFinite && $0 >= 0 }), clock[0] < 24, clock[1] < 60, clock[2] < 61
        else { return nil }
        let dayParts = day.split(separator: ":")
        guard dayParts.count == 3, let midnight = UTCTime.parse("\(dayParts.joined(separator: "-"))T00:00:00Z")
        else { return nil }
        let utc = midnight.addingTimeInterval(clock[0] * 3600 + clock[1] * 60 + clock[2])
        let difference = wallClock.timeIntervalSince(utc)
        let quarters = (difference / 900).rounded()
        guard abs(difference - quarters * 900) <= 180, abs(quarters) <= 56 else { return nil }
        return Int(quarters) * 900
    }

    /// Where the JPEG in `bytes` was taken, from its EXIF GPS block: latitude and longitude, the
    /// altitude (above sea level, as receivers write it) and the image direction when given.
    ///
    /// - Returns: nil without a GPS block, or when its coordinates are missing or impossible.
    public static func geotag(inJPEG bytes: some Collection<UInt8>) -> Geotag? {
        let head = Array(bytes.prefix(256 * 1024))
        return exifBlock(head).flatMap { geotag(tiff: $0, head: head) }
    }

    /// The capture time and the geotag of the JPEG in `bytes`, its EXIF block found once; a DJI
    /// photo's XMP attitude is added to its geotag.
    public static func captureTimeAndGeotag(inJPEG bytes: some Collection<UInt8>) -> (CaptureTime?, Geotag?) {
        let head = Array(bytes.prefix(256 * 1024))
        guard let block = exifBlock(head) else { return (nil, nil) }
        return (captureTime(tiff: block), geotag(tiff: block, head: head))
    }

    /// The geotag of an EXIF block, with the XMP attitude of the JPEG header `head` it came from.
    private static func geotag(tiff block: [UInt8], head: [UInt8]) -> Geotag? {
        guard var tag = geotag(tiff: block) else { return nil }
        if let xmp = XMPPacket(inJPEG: head) { tag.drone = DroneAttitude(xmp) }
        return tag
    }

    /// What the JPEG in `bytes`' EXIF says of its lens and sensor (for its field of view), or nil
    /// when it says nothing of them.
    public static func lens(inJPEG bytes: some Collection<UInt8>) -> PhotoLens? {
        guard let block = exifBlock(Array(bytes.prefix(256 * 1024))), let tiff = TIFFStructure(block),
            let first = tiff.u32(4),
            let exif = tiff.entries(first)[0x8769].flatMap({ tiff.u32($0.field) }).map(tiff.entries)
        else { return nil }
        var lens = PhotoLens()
        lens.focalLengthIn35mm = tiff.integer(exif[0xA405]).flatMap { $0 > 0 ? Double($0) : nil }
        lens.focalLength = tiff.rationals(exif[0x920A])?.first.flatMap { $0 > 0 ? $0 : nil }
        // FocalPlaneResolutionUnit: 2 inches (the default), 3 centimetres, 4 millimetres (EXIF 2.3).
        let millimetresPerUnit: Double? =
            switch tiff.integer(exif[0xA210]) ?? 2 {
            case 2: 25.4
            case 3: 10
            case 4: 1
            default: nil
            }
        if let unit = millimetresPerUnit, let x = tiff.rationals(exif[0xA20E])?.first,
            let y = tiff.rationals(exif[0xA20F])?.first, x > 0, y > 0
        {
            lens.focalPlanePixelsPerMillimetre = (x / unit, y / unit)
        }
        if let width = tiff.integer(exif[0xA002]), let height = tiff.integer(exif[0xA003]), width > 0, height > 0 {
            lens.pixelDimensions = (width, height)
        }
        guard lens.focalLengthIn35mm != nil || lens.focalLength != nil else { return nil }
        return lens
    }

    static func geotag(tiff bytes: [UInt8]) -> Geotag? {
        guard let tiff = TIFFStructure(bytes), let first = tiff.u32(4) else { return nil }
        guard let pointer = tiff.entries(first)[0x8825].flatMap({ tiff.u32($0.field) }) else { return nil }
        let gps = tiff.entries(pointer)
        func degrees(_ tag: Int) -> Double? {
            guard let values = tiff.rationals(gps[tag]), values.count == 3 else { return nil }
            return values[0] + values[1] / 60 + values[2] / 3600
        }
        guard var latitude = degrees(2), var longitude = degrees(4) else { return nil }
        if tiff.ascii(gps[1])?.uppercased() == "S" { latitude = -latitude }
        if tiff.ascii(gps[3])?.uppercased() == "W" { longitude = -longitude }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        var altitude = tiff.rationals(gps[6])?.first
        if let value = altitude, tiff.byte(gps[5]) == 1 { altitude = -value }
        let direction = tiff.rationals(gps[17])?.first.flatMap { (0..<360.5).contains($0) ? $0 : nil }
        return Geotag(
            latitude: latitude, longitude: longitude, altitudeMeanSeaLevel: altitude, imageDirection: direction,
            directionIsMagnetic: tiff.ascii(gps[16])?.uppercased() == "M")
    }
}
