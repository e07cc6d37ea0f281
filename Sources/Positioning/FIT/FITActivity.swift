import ArcaptureCore
import Foundation

/// Reads a FIT activity file (Garmin Edge, fenix and Forerunner, Wahoo, Coros, Zwift, Strava's
/// app…) into a ``RecordedTrack``: each `record` message's UTC time, position (semicircles),
/// altitude above sea level (`enhanced_altitude`, else `altitude`) and speed. Compressed
/// timestamps, developer fields and chained files are read; see `FITDecoder` (internal) for the format.
///
/// A corrupt header or a CRC that does not match is an error (nothing in the file can be trusted);
/// a file cut short, or a message that cannot be read, keeps the records before it, with a
/// warning naming the byte.
public enum FITActivity {
    /// Whether `head` (a file's first bytes) starts with a FIT header.
    public static func isFITFile(head: Data) -> Bool { FITDecoder.isFITFile(head: [UInt8](head.prefix(12))) }

    /// Reads `path`.
    ///
    /// - Throws: `InputFileError` when the file is missing, unreadable, corrupt, or has no record
    ///   with a position.
    public static func load(_ path: String) throws(InputFileError) -> RecordedTrack {
        try read(InputFile.read(path), file: path)
    }

    static func read(_ data: Data, file: String) throws(InputFileError) -> RecordedTrack {
        let decoder: FITDecoder
        do {
            decoder = try FITDecoder([UInt8](data))
        } catch {
            throw .malformed(file: file, location: "byte \(error.offset)", problem: error.problem)
        }
        var warnings: [String] = []
        var warningCount = 0
        func warn(_ text: String) {
            warningCount += 1
            if warnings.count < RecordedTrack.warningLimit { warnings.append("\(file): \(text)") }
        }
        let positioned = decoder.records.filter { $0.latitude != nil && $0.longitude != nil }
        if let stop = decoder.stop {
            warn("byte \(stop.offset): \(stop.problem); the \(decoder.records.count) records before it are read")
        }
        guard !positioned.isEmpty else {
            if let stop = decoder.stop, decoder.records.isEmpty {
                throw .malformed(file: file, location: "byte \(stop.offset)", problem: stop.problem)
            }
            throw .malformed(
                file: file, location: nil,
                problem: decoder.records.isEmpty
                    ? "no record messages: not an activity (a FIT settings, course or monitoring file?)"
                    : "none of its \(decoder.records.count) records has a position (an indoor activity, or a "
                        + "watch without GPS)")
        }
        var fixes: [LocationFix] = []
        fixes.reserveCapacity(positioned.count)
        var relative = 0
        var outOfOrder = 0
        for record in positioned {
            guard record.timestamp >= 0x1000_0000 else {
                relative += 1
                continue
            }
            let time = Date(timeIntervalSince1970: FITDecoder.epoch + Double(record.timestamp))
            if let last = fixes.last?.time, time <= last {
                outOfOrder += 1
                warn("byte \(record.offset): a record at \(UTCTime.format(time)), not after the one before; skipped")
                continue
            }
            let semicircle = 180 / 2_147_483_648.0
            guard let latitude = record.latitude, let longitude = record.longitude,
                let coordinate = GeodeticCoordinate(
                    latitude: Double(latitude) * semicircle, longitude: Double(longitude) * semicircle)
            else { continue }
            fixes.append(
                LocationFix(
                    time: time, coordinate: coordinate, mode: record.altitude == nil ? .twoD : .threeD,
                    altitudeMeanSeaLevel: record.altitude, speed: record.speed))
        }
        if relative > 0 {
            warn(
                "\(relative) records with a position are timed by the device's own clock since it started, not UTC; skipped"
            )
        }
        guard !fixes.isEmpty else {
            throw .malformed(
                file: file, location: nil,
                problem:
                    "its \(positioned.count) records with a position have no UTC time (the device's own clock only)")
        }
        var summary = "\(fixes.count) fixes from \(decoder.records.count) records (FIT"
        if let maker = decoder.maker { summary += ", " + Self.describe(maker) }
        if decoder.files > 1 { summary += ", \(decoder.files) files chained" }
        summary += ")"
        if decoder.compressedTimestamps > 0 { summary += "; compressed timestamps: \(decoder.compressedTimestamps)" }
        if decoder.developerFields > 0 { summary += "; developer fields skipped: \(decoder.developerFields)" }
        let withHeight = fixes.filter { $0.altitudeMeanSeaLevel != nil }.count
        summary +=
            withHeight == fixes.count ? "; heights above sea level" : "; heights above sea level for \(withHeight)"
        if decoder.records.count > positioned.count {
            summary += "; records without a position: \(decoder.records.count - positioned.count)"
        }
        if outOfOrder > 0 { summary += "; out of order: \(outOfOrder)" }
        if let stop = decoder.stop { summary += "; stopped at byte \(stop.offset)" }
        return RecordedTrack(
            file: file, fixes: fixes, warnings: warnings, warningCount: warningCount, summary: summary)
    }

    /// `garmin, product 1036`: the maker by the FIT profile's names for the common ones.
    static func describe(_ maker: (manufacturer: UInt16, product: UInt16?)) -> String {
        let names: [UInt16: String] = [
            1: "garmin", 23: "suunto", 32: "wahoo_fitness", 40: "concept2", 69: "stages_cycling", 70: "sigmasport",
            95: "stryd", 255: "development", 260: "zwift", 263: "bryton", 265: "strava", 289: "hammerhead",
            294: "coros", 307: "polar",
        ]
        var text = names[maker.manufacturer] ?? "manufacturer \(maker.manufacturer)"
        if let product = maker.product { text += ", product \(product)" }
        return text
    }
}
