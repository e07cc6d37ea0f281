import Foundation

/// The GPS of one GPMF payload: its GPS5 samples (latitude, longitude, altitude above the
/// ellipsoid, 2D and 3D speed) with the payload's GPS time (GPSU), fix (GPSF) and precision
/// (GPSP), or GPS9 samples, which carry each its own time, precision and fix.
public struct GPMFGPSPayload: Sendable, Equatable {
    /// One position.
    public struct Sample: Sendable, Equatable {
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double
        /// Metres above the WGS84 ellipsoid (not the sea: GoPro's GPS reports the ellipsoid's), or
        /// above mean sea level when the payload says so (``GPMFGPSPayload/altitudeIsMeanSeaLevel``).
        public var altitude: Double
        /// Ground speed, m/s.
        public var speed2D: Double
        /// Speed in three dimensions, m/s.
        public var speed3D: Double
        /// The sample's own time (GPS9); nil for GPS5, whose samples share the payload's GPSU.
        public var time: Date?
        /// The sample's own dilution of precision (GPS9).
        public var dilution: Double?
        /// The sample's own fix, 0 none, 2 2D, 3 3D (GPS9).
        public var fix: Int?
        /// Course over ground in degrees, when the stream gives one (the Karma's).
        public var course: Double?
    }

    /// The samples, in order.
    public var samples: [Sample] = []
    /// `GPS5` or `GPS9` (or `GLPI`, `GPRI` for a Karma's, see ``GPMFKarmaPayload``).
    public var key = "GPS5"
    /// Whether the samples' altitude is above mean sea level (the Karma's, and a GPS stream's whose
    /// GPSA says `MSLV`) rather than the ellipsoid.
    public var altitudeIsMeanSeaLevel = false
    /// The payload's GPS time (GPSU), which GoPro's documentation gives for the payload's first
    /// sample; the first payload of a file may repeat a stale one.
    public var utc: Date?
    /// The payload's fix (GPSF): 0 none, 2 2D, 3 3D.
    public var fix: Int?
    /// The payload's dilution of precision (GPSP / 100): under 5 is good.
    public var dilution: Double?

    /// The GPS in `items` (a payload's `DEVC`s and their `STRM`s), nil when there is none.
    ///
    /// - Throws: ``GPMFError`` when a GPS item is damaged: a scale of zero or of the wrong count, a
    ///   sample of the wrong size, a time that is not one.
    public static func decode(_ items: [GPMFItem]) throws(GPMFError) -> GPMFGPSPayload? {
        var found: GPMFGPSPayload?
        for device in items where device.key == "DEVC" {
            for stream in device.children where stream.key == "STRM" {
                if let payload = try decode(stream: stream.children), found == nil || payload.key == "GPS9" {
                    found = payload
                }
            }
        }
        return found
    }

    /// One `STRM`'s GPS: the sticky items (SCAL, GPSU, GPSF, GPSP, TYPE) come before the samples.
    private static func decode(stream: [GPMFItem]) throws(GPMFError) -> GPMFGPSPayload? {
        var payload = GPMFGPSPayload()
        var scale: [Double] = []
        var layout = ""
        var found = false
        for item in stream {
            switch item.key {
            case "SCAL": scale = try item.numbers()
            case "TYPE": layout = item.text
            case "GPSU":
                guard let time = utc(item.text) else {
                    throw GPMFError(offset: item.offset, problem: "GPSU '\(item.text)' is not a yymmddhhmmss.sss time")
                }
                payload.utc = time
            case "GPSF": payload.fix = try item.numbers().first.map { Int($0) }
            case "GPSP": payload.dilution = try item.numbers().first.map { $0 / 100 }
            // The altitude's datum, in the HERO13's GPS9 streams: MSLV, mean sea level; else (and
            // without it, as every earlier GoPro) the WGS84 ellipsoid.
            case "GPSA": payload.altitudeIsMeanSeaLevel = item.text.uppercased().hasPrefix("MSL")
            case "GPS5":
                payload.key = "GPS5"
                payload.samples = try gps5(item, scale: scale)
                found = true
            case "GPS9":
                payload.key = "GPS9"
                payload.samples = try gps9(item, scale: scale, layout: layout)
                found = true
            default: break
            }
        }
        return found ? payload : nil
    }

    /// GPS5: five 32-bit signed values a sample, each divided by its SCAL.
    private static func gps5(_ item: GPMFItem, scale: [Double]) throws(GPMFError) -> [Sample] {
        guard item.type == UInt8(ascii: "l"), item.sampleSize == 20 else {
            throw GPMFError(
                offset: item.offset,
                problem: "GPS5 samples are '\(GPMFItem.typeName(item.type))' of \(item.sampleSize) bytes, not 'l' of 20"
            )
        }
        let divisors = try item.divisors(scale, count: 5)
        let values = try item.numbers()
        return stride(from: 0, to: values.count - 4, by: 5).map { start in
            let value = { (field: Int) in values[start + field] / divisors[field] }
            return Sample(
                latitude: value(0), longitude: value(1), altitude: value(2), speed2D: value(3), speed3D: value(4))
        }
    }

    /// GPS9: latitude, longitude, altitude, 2D and 3D speed, days since 2000, seconds since
    /// midnight, dilution and fix, laid out as TYPE says (`lllllllSS`), each divided by its SCAL.
    private static func gps9(_ item: GPMFItem, scale: [Double], layout: String) throws(GPMFError) -> [Sample] {
        guard layout.utf8.count == 9 else {
            throw GPMFError(
                offset: item.offset, problem: "GPS9 samples do not match TYPE '\(layout)' (9 numeric fields)")
        }
        let epoch = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z
        return try item.structuredSamples(layout: layout, scale: scale, fields: 9).map { values in
            Sample(
                latitude: values[0], longitude: values[1], altitude: values[2], speed2D: values[3],
                speed3D: values[4], time: epoch.addingTimeInterval(values[5] * 86_400 + values[6]),
                dilution: values[7], fix: Int(values[8]))
        }
    }

    /// GPSU's `yymmddhhmmss.sss` as a UTC date.
    static func utc(_ text: String) -> Date? {
        let characters = Array(text.utf8)
        guard characters.count >= 12, characters.prefix(12).allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        func number(_ range: Range<Int>) -> Int { Int(String(decoding: characters[range], as: UTF8.self)) ?? -1 }
        var components = DateComponents()
        components.timeZone = TimeZone(identifier: "UTC")
        components.year = 2000 + number(0..<2)
        components.month = number(2..<4)
        components.day = number(4..<6)
        components.hour = number(6..<8)
        components.minute = number(8..<10)
        components.second = number(10..<12)
        guard (1...12).contains(components.month ?? 0), (1...31).contains(components.day ?? 0),
            (0...23).contains(components.hour ?? -1), (0...59).contains(components.minute ?? -1),
            (0...60).contains(components.second ?? -1)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard let whole = calendar.date(from: components) else { return nil }
        let fraction = characters.count > 12 ? Double(String(decoding: characters[12...], as: UTF8.self)) ?? 0 : 0
        return whole.addingTimeInterval(fraction)
    }
}
