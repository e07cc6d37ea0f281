import ArcaptureCore
import Foundation
import Glibc
import Positioning

/// The GPS of a video whose telemetry arcapture does not read itself, as ExifTool reads it: the
/// long tail of dashcams (Novatek's "freeGPS", BlackVue, Thinkware, Nextbase, 70mai…), Sony's
/// `rtmd`, Insta360's trailer and the formats ExifTool learns after this was written.
///
/// ExifTool (`libimage-exiftool-perl`) is run as a program, `exiftool -ee -n -j -G3` with the GPS
/// tags: its change log adds a dashcam or two every few months, a pace no reader written here
/// could keep, and it is the reference the other readers are tested against. Each embedded
/// document (`Doc1`, `Doc2`…) with a date, a latitude and a longitude is a fix; its altitude is
/// taken as above sea level (what these devices record), its speed converted from its
/// `GPSSpeedRef` unit, its course kept when it is true (`GPSTrackRef` T). Records at 0°, 0° are a
/// receiver without a fix (the Insta360 sample's): left out and counted. A document's
/// `SampleTime` (its time in the video, for telemetry in a track) ties the GPS clock to the video,
/// by the median over documents as for GoPro's GPMF; without one the video is not timed by it.
/// Records with a position and no GPS time (a Yuneec drone's subtitles) are timed by their
/// `SampleTime` alone, as a DJI file without dates is (``EmbeddedTelemetry/Reading/isRelative``).
public enum ExifToolTrack {
    /// The program run.
    public static let program = "exiftool"
    /// What installs it, for messages.
    public static let install = "apt-get install libimage-exiftool-perl"

    /// The path of `exiftool` on `PATH`, nil when it is not installed.
    public static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Reads the GPS ExifTool finds in `path`.
    ///
    /// - Throws: `InputFileError.malformed` naming the file when ExifTool is not installed, fails,
    ///   or finds no position with a date (the message says which, and what installs it).
    public static func read(_ path: String) throws(InputFileError) -> EmbeddedTelemetry.Reading {
        guard let executable else {
            throw .malformed(
                file: path, location: nil,
                problem: "ExifTool, which reads the GPS of many dashcams and other cameras, is not installed "
                    + "(\(install))")
        }
        let output: (status: Int32, data: Data)
        do {
            output = try run(
                executable,
                [
                    "-ee", "-n", "-j", "-G3", "-api", "LargeFileSupport=1", "-SampleTime", "-GPSDateTime",
                    "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", "-GPSSpeed", "-GPSSpeedRef", "-GPSTrack",
                    "-GPSTrackRef", "--", path,
                ])
        } catch {
            throw .malformed(file: path, location: nil, problem: "ExifTool could not be run: \(error)")
        }
        let version = (try? run(executable, ["-ver"])).map {
            String(decoding: $0.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        // ExifTool exits 1 for a file it cannot read at all; it still prints what it could.
        guard !output.data.isEmpty else {
            throw .malformed(
                file: path, location: nil, problem: "ExifTool cannot read it (it exited \(output.status))")
        }
        return try reading(output.data, path: path, version: version)
    }

    /// The fixes in ExifTool's JSON output `data` for `path` (read by ExifTool `version`).
    static func reading(_ data: Data, path: String, version: String?) throws(InputFileError)
        -> EmbeddedTelemetry.Reading
    {
        let tool = "ExifTool" + (version.map { " \($0)" } ?? "")
        guard let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]], let tags = list.first else {
            throw .malformed(file: path, location: nil, problem: "\(tool) printed no reading of it")
        }
        // Tags are `Doc7:GPSLatitude`; those of the file itself (`Main:`) describe no moment.
        var documents: [Int: [String: Any]] = [:]
        for (key, value) in tags {
            let parts = key.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix("Doc"), let number = Int(parts[0].dropFirst(3)) else { continue }
            documents[number, default: [:]][String(parts[1])] = value
        }
        // A record is timed by the GPS clock (GPSDateTime), else only by its time in the video
        // (SampleTime: a Yuneec's subtitles), which places it once the video's start is known.
        let dated = documents.values.contains { $0["GPSDateTime"] is String }
        var fixes: [(fix: LocationFix, sampleTime: Double?)] = []
        var withoutFix = 0
        var untimed = 0
        for number in documents.keys.sorted() {
            let document = documents[number] ?? [:]
            guard let latitude = document["GPSLatitude"] as? Double, let longitude = document["GPSLongitude"] as? Double
            else { continue }
            let sampleTime = document["SampleTime"] as? Double
            let time =
                dated
                ? (document["GPSDateTime"] as? String).flatMap(Self.time)
                : sampleTime.map { Date(timeIntervalSince1970: $0) }
            guard let time else {
                untimed += 1
                continue
            }
            guard latitude != 0 || longitude != 0,
                let coordinate = GeodeticCoordinate(latitude: latitude, longitude: longitude, altitude: nil)
            else {
                withoutFix += 1
                continue
            }
            let altitude = document["GPSAltitude"] as? Double
            let speed = (document["GPSSpeed"] as? Double).map { value in
                switch document["GPSSpeedRef"] as? String {
                case "M": value * 1609.344 / 3600
                case "N": value * 1852 / 3600
                default: value / 3.6  // K, ExifTool's unit when the file names none
                }
            }
            let course = (document["GPSTrackRef"] as? String ?? "T") == "T" ? document["GPSTrack"] as? Double : nil
            fixes.append(
                (
                    LocationFix(
                        time: time, coordinate: coordinate, mode: altitude == nil ? .twoD : .threeD,
                        altitudeMeanSeaLevel: altitude, course: course, speed: speed),
                    sampleTime
                ))
        }
        guard !fixes.isEmpty else {
            throw .malformed(
                file: path, location: nil,
                problem: withoutFix > 0
                    ? "\(tool) finds \(withoutFix) GPS records in it, all at 0°, 0°: its receiver had no fix"
                    : untimed > 0
                        ? "\(tool) finds \(untimed) GPS positions in it, none with a time (a GPS time or a time in the video)"
                        : "\(tool) finds no GPS position in it")
        }
        fixes.sort { $0.fix.time < $1.fix.time }
        var kept: [LocationFix] = []
        for (fix, _) in fixes where kept.last.map({ fix.time > $0.time }) ?? true { kept.append(fix) }
        // The GPS clock at the video's start: the median of each record's GPS time less its time in
        // the video (a stale first time does not move it).
        let offsets =
            dated
            ? fixes.compactMap { entry in entry.sampleTime.map { entry.fix.time.timeIntervalSince1970 - $0 } }.sorted()
            : []
        let videoStart = offsets.isEmpty ? nil : Date(timeIntervalSince1970: offsets[offsets.count / 2])
        var summary = "\(kept.count) fixes from its metadata (exiftool -ee)"
        if withoutFix > 0 { summary += "; \(withoutFix) records at 0°, 0° without a fix left out" }
        if untimed > 0 { summary += "; \(untimed) without a time left out" }
        if fixes.count > kept.count { summary += "; \(fixes.count - kept.count) at a time already read left out" }
        if !dated {
            summary += "; timed by their place in the video only"
        } else if videoStart == nil {
            summary += "; on the GPS clock, not tied to the video's timing"
        } else {
            summary += "; on the GPS clock, tied to the video by each record's time in it"
        }
        return EmbeddedTelemetry.Reading(
            track: RecordedTrack(file: path, fixes: kept, summary: summary), videoStart: videoStart,
            startSource: .exifToolGPSClock,
            origin: "\(tool)'s reading of \(path)", isRelative: !dated)
    }

    /// `2019:11:18 23:45:14.470`, `2022:12:18 20:15:21Z`: ExifTool's GPSDateTime (UTC, its date
    /// with colons).
    static func time(_ text: String) -> Date? {
        var characters = Array(text)
        guard characters.count >= 10, characters[4] == ":", characters[7] == ":" else { return nil }
        characters[4] = "-"
        characters[7] = "-"
        return UTCTime.parse(String(characters))
    }

    /// Runs `executable` with `arguments`; its exit status and standard output.
    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, data: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read before waiting: a reading larger than the pipe's buffer would block ExifTool. Read
        // through the choke point, interrupted reads retried: Foundation's readDataToEndOfFile
        // traps on a read error (a signal arriving mid-read, as under libFuzzer, made one).
        let descriptor = output.fileHandleForReading.fileDescriptor
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                SystemCall.retryingInterrupts("read") { Glibc.read(descriptor, bytes.baseAddress, bytes.count) }
            }
            guard case .success(let read) = count, read > 0 else { break }
            data.append(contentsOf: buffer[0..<read])
        }
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }
}
