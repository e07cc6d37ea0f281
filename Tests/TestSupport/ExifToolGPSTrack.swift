import Foundation

/// A video's GPS as ExifTool reads it (`exiftool -ee`: every sample with its own GPSDateTime, as
/// a GoPro Karma's flight streams carry them), written as a GPX track on another clock: what a
/// separate logger (a phone, a bike computer) riding along would have recorded. ExifTool shares
/// no code with arcapture's telemetry reader, so a track made here is an independent reference.
public struct ExifToolGPSTrack {
    /// Each sample: seconds since 1970 on the GPS clock, latitude, longitude.
    public var samples: [(time: Double, latitude: Double, longitude: Double)]

    /// Reads `video`'s GPS samples.
    ///
    /// - Throws: when exiftool is missing, fails, or gives no sample (or times and positions in
    ///   different numbers, as it does for GPS5, whose time is per payload).
    public init(video: String) async throws {
        let output = try await ProcessRunner.output(
            tool: "exiftool", ["-ee", "-n", "-G3", "-s", "-GPSDateTime", "-GPSLatitude", "-GPSLongitude", video],
            package: "libimage-exiftool-perl")
        var values: [String: [String]] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, let colon = line.firstIndex(of: ":") else { continue }
            values[String(fields[1]), default: []].append(
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let times = (values["GPSDateTime"] ?? []).compactMap(Self.seconds)
        let latitudes = (values["GPSLatitude"] ?? []).compactMap(Double.init)
        let longitudes = (values["GPSLongitude"] ?? []).compactMap(Double.init)
        guard !times.isEmpty, times.count == latitudes.count, times.count == longitudes.count else {
            throw GPMFReference.ReferenceError(
                "exiftool gave \(times.count) times, \(latitudes.count) latitudes, \(longitudes.count) longitudes for \(video)"
            )
        }
        samples = (0..<times.count).map { (times[$0], latitudes[$0], longitudes[$0]) }
    }

    /// `2017:04:17 19:27:57.52602` (UTC) as seconds since 1970.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == ":" })
        guard parts.count == 6, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let hour = Int(parts[3]), let minute = Int(parts[4]), let second = Double(parts[5])
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        guard
            let date = calendar.date(
                from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))
        else { return nil }
        return date.timeIntervalSince1970 + second
    }

    /// A GPX 1.1 track of the samples with `ahead` seconds added to every time (a logger whose
    /// clock is ahead of the GPS clock), and the logger standing at the first and last place
    /// `standing` seconds before and after (a track is longer than a clip).
    public func gpx(ahead: Double, standing: Double = 20) -> String {
        guard let first = samples.first, let last = samples.last else { return "" }
        let points =
            [(first.time - standing, first.latitude, first.longitude)]
            + samples.map { ($0.time, $0.latitude, $0.longitude) }
            + [(last.time + standing, last.latitude, last.longitude)]
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var text =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"arcapture tests\" "
            + "xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        for (time, latitude, longitude) in points {
            let date = Date(timeIntervalSince1970: time + ahead)
            text +=
                "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\"><time>\(formatter.string(from: date))</time></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }
}
