import ArcaptureCore
import Foundation

/// Turns gpsd's JSON reports (one per line) into location events.
///
/// - TPV: gpsd may report one epoch in several TPVs (one per NMEA sentence, the first ones without
///   `time` until it knows the date). TPVs without a time are held and merged into the next timed
///   one; a TPV with the same time as the last fix adds its fields to it and is sent again (it
///   replaces the earlier one, see ``LocationEvent/fix(_:)``).
/// - Altitude: `altHAE` (ellipsoidal) when present; else `altMSL` (or the older `alt`) with
///   `geoidSep`.
/// - Accuracy: gpsd's `eph` (or, from older gpsd, `epx` and `epy` combined as a radius) and `epv`:
///   gpsd's own estimates.
/// - ATT: heading, pitch and roll; without a `time` (gpsd 3.22 sends none for NMEA HDT/THS) it
///   belongs to the epoch of the newest TPV.
/// - VERSION, DEVICES, WATCH, SKY and others: a DEVICES list with no device gives a warning.
struct GPSDMessageDecoder {
    private var untimed: [String: Any] = [:]
    private var epoch: [String: Any] = [:]
    private var epochTime: Date?
    private var epochReceived: Int64?
    private var hadFix = false
    private var reportedMode: FixMode?
    /// Whether a VERSION arrived: the peer is gpsd.
    private(set) var greeted = false

    /// Decodes one line received at `received` (CLOCK_MONOTONIC nanoseconds).
    mutating func decode(_ line: String, received: Int64) -> [LocationEvent] {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return [] }
        guard let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any],
            let kind = object["class"] as? String
        else { return [.warning("gpsd sent a line that is not a JSON report: \(trimmed.prefix(80))")] }
        switch kind {
        case "VERSION":
            greeted = true
            return []
        case "DEVICES":
            let devices = object["devices"] as? [Any] ?? []
            // gpsd opens receivers on demand, so an empty list at connection time is normal; say so
            // once anyway, since it is also what a gpsd started without a device says.
            return devices.isEmpty ? [.warning("gpsd lists no receiver (yet)")] : []
        case "TPV": return tpv(object, received: received)
        case "ATT": return att(object, received: received)
        case "ERROR": return [.warning("gpsd: \(object["message"] as? String ?? "error")")]
        default: return []
        }
    }

    private mutating func tpv(_ object: [String: Any], received: Int64) -> [LocationEvent] {
        var events: [LocationEvent] = []
        let mode = (object["mode"] as? Int).flatMap(FixMode.init(rawValue:)) ?? .noFix
        guard mode >= .twoD else {
            untimed = [:]
            report(.noFix, into: &events)
            return events
        }
        guard let text = object["time"] as? String else {
            untimed.merge(object) { _, new in new }
            return events
        }
        guard let time = UTCTime.parse(text) else {
            return [.warning("gpsd sent a TPV time '\(text)' that does not parse")]
        }
        if time != epochTime {
            epoch = untimed
            epochTime = time
            epochReceived = received
        } else {
            epoch.merge(untimed) { _, new in new }
        }
        untimed = [:]
        epoch.merge(object) { _, new in new }
        guard let fix = Self.fix(from: epoch, time: time, mode: mode, received: epochReceived ?? received) else {
            return [.warning("gpsd sent a TPV in mode \(mode) without a usable lat and lon")]
        }
        report(mode, into: &events)
        hadFix = true
        events.append(.fix(fix))
        return events
    }

    private static func fix(from fields: [String: Any], time: Date, mode: FixMode, received: Int64) -> LocationFix? {
        func number(_ key: String) -> Double? {
            (fields[key] as? NSNumber).map(\.doubleValue).flatMap { $0.isFinite ? $0 : nil }
        }
        let separation = number("geoidSep")
        let meanSeaLevel = number("altMSL") ?? number("alt")
        var ellipsoidal = number("altHAE")
        if ellipsoidal == nil, let meanSeaLevel, let separation { ellipsoidal = meanSeaLevel + separation }
        guard let latitude = number("lat"), let longitude = number("lon"),
            let coordinate = GeodeticCoordinate(
                latitude: latitude, longitude: longitude, altitude: mode == .threeD ? ellipsoidal : nil)
        else { return nil }
        // eph (gpsd 3.20+) is gpsd's 2D error estimate; older versions give only epx and epy.
        var horizontal = number("eph")
        if horizontal == nil, let epx = number("epx"), let epy = number("epy") {
            horizontal = (epx * epx + epy * epy).squareRoot()
        }
        return LocationFix(
            time: time, coordinate: coordinate, mode: mode, receivedMonotonicNanoseconds: received,
            altitudeMeanSeaLevel: mode == .threeD ? meanSeaLevel : nil, geoidSeparation: separation,
            horizontalAccuracy: horizontal, verticalAccuracy: mode == .threeD ? number("epv") : nil,
            course: number("track"), speed: number("speed"))
    }

    private mutating func att(_ object: [String: Any], received: Int64) -> [LocationEvent] {
        func number(_ key: String) -> Double? {
            (object[key] as? NSNumber).map(\.doubleValue).flatMap { $0.isFinite ? $0 : nil }
        }
        guard let heading = number("heading") else { return [] }
        var time = (object["time"] as? String).flatMap(UTCTime.parse)
        if time == nil, let epochTime, let epochReceived {
            // A heading sentence belongs to the epoch it arrives in, as in NMEA; one that arrives long
            // after the last position (positions stopped) is dated by the time since then.
            let elapsed = Double(received - epochReceived) / 1e9
            time = elapsed < 1.5 ? epochTime : epochTime.addingTimeInterval(elapsed)
        }
        guard let time else { return [.warning("gpsd sent an ATT before any fix, without a time; skipped")] }
        return [
            .orientation(
                OrientationSample(
                    time: time, heading: heading, pitch: number("pitch"), roll: number("roll"), origin: .gpsdAttitude,
                    receivedMonotonicNanoseconds: received))
        ]
    }

    private mutating func report(_ mode: FixMode, into events: inout [LocationEvent]) {
        guard mode != reportedMode else { return }
        reportedMode = mode
        events.append(.status(mode == .noFix ? (hadFix ? .lost : .noFix) : .fix(mode)))
    }
}
