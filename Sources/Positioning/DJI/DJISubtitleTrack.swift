import ArcaptureCore
import Foundation

/// A DJI subtitle file read as a track: its fixes and orientations timed from the video's start,
/// and the drone's clock at that start when the file gives one.
///
/// What it decides, each said in ``track``'s summary:
/// - **Time.** A cue's time is its subtitle timing (seconds into the video), which lines it up
///   with the video's frames exactly; the drone's clock, when the cues carry it, gives the
///   video's start. That clock is the local wall-clock time of the phone or controller with no
///   zone, so it is read in the zone `TZ` names, as an EXIF time without an offset is. Without
///   timing lines (one early variant) a cue's time is its clock's, from the first cue.
/// - **Heights.** `abs_alt` and `altitude` are what the drone believes is above sea level; without
///   them only the height above take-off is known (`rel_alt`, `BAROMETER`, `H`), and the take-off
///   point is taken at sea level, which the summary says (a terrain model would give its ground).
/// - **Orientation.** The gimbal's yaw, pitch and roll when the dialect has them (they are the
///   camera's); else the airframe's yaw, which the camera follows when its gimbal is locked
///   forward; else none, and the course over ground is used as for any track. DJI gives yaw from
///   true north.
/// - **Resolution.** Positions written to 4 decimals (~11 m in latitude) are averaged over
///   ``smoothingWindow`` along the track, as the steps would otherwise swing every label.
public struct DJISubtitleTrack: Sendable {
    /// The fixes and orientations, timed from ``videoStart``, or from the Unix epoch when the
    /// file has no clock (``isRelative``).
    public var track: RecordedTrack
    /// The drone's clock at the video's start, and how it was read; nil when the cues carry no
    /// date and time.
    public var videoStart: CaptureTime?
    /// The cues in the file.
    public var cueCount: Int

    /// Seconds either side of a fix that positions written with 4 decimals or fewer are averaged
    /// over.
    public static let smoothingWindow = 2.5

    /// Whether the times are seconds from the video's start only (counted from the Unix epoch),
    /// to be placed by whoever knows when the video began.
    public var isRelative: Bool { videoStart == nil }

    /// Reads the subtitle file `data` (named `file` in messages).
    ///
    /// - Throws: `InputFileError.malformed` when the file has no cue, no cue with a position, or
    ///   damage in every cue, naming the first damaged cue.
    public init(data: Data, file: String) throws(InputFileError) {
        let (cues, timed) = DJISubtitleParser.cues(data)
        cueCount = cues.count
        guard !cues.isEmpty else {
            throw .malformed(
                file: file, location: nil,
                problem: data.isEmpty
                    ? "empty: a DJI subtitle file has numbered cues, each with a timing line"
                    : "no subtitle cue (a number on a line of its own, then a timing line `00:00:01,000 --> 00:00:02,000`)"
            )
        }
        var warnings: [String] = []
        var warningCount = 0
        func warn(_ text: String) {
            warningCount += 1
            if warnings.count < RecordedTrack.warningLimit { warnings.append("\(file): \(text)") }
        }
        let damaged = cues.filter(\.isDamaged)
        let withoutFix = cues.filter { !$0.hasPosition && !$0.isDamaged }
        for cue in damaged { warn("\(cue.location): \(cue.problem ?? "damaged"); skipped") }
        let usable = cues.filter(\.hasPosition)
        guard let first = usable.first else {
            if let firstDamaged = damaged.first {
                throw .malformed(
                    file: file, location: firstDamaged.location,
                    problem: (firstDamaged.problem ?? "damaged") + " (no cue of \(cues.count) gives a position)")
            }
            throw .malformed(
                file: file, location: nil,
                problem: "none of its \(cues.count) cues gives a position (\(cues[0].problem ?? "no GPS")): "
                    + "this drone recorded no GPS in its subtitles")
        }
        // Each cue's time from the video's start.
        var times: [Double?] = usable.map(\.videoTime)
        if !timed {
            let origin = usable.compactMap(\.wallClock).first
            times = usable.map { cue in
                guard let origin, let clock = cue.wallClock else { return nil }
                return clock.timeIntervalSince(origin)
            }
        }
        // The video's start on the drone's clock, from the first cue that has both.
        var videoStart: CaptureTime?
        if let pair = zip(usable, times).first(where: { $0.0.wallClock != nil && $0.1 != nil }),
            let clock = pair.0.wallClock, let time = pair.1,
            let local = LocalTime.instant(ofWallClock: clock.addingTimeInterval(-time))
        {
            videoStart = CaptureTime(
                date: local.date,
                source: .subtitleClockInLocalZone(zone: local.zone, offsetSeconds: local.offsetSeconds))
        }
        self.videoStart = videoStart
        let origin = videoStart?.date ?? Date(timeIntervalSince1970: 0)
        // Fixes, in time order.
        let decimals = usable.compactMap(\.coordinateDecimals).min() ?? 6
        let coarse = decimals <= 4
        var fixes: [LocationFix] = []
        var orientations: [OrientationSample] = []
        var fixTimes: [Double] = []
        var outOfOrder = 0
        let hasSeaLevel = usable.contains { $0.altitudeAboveSeaLevel != nil }
        for (cue, time) in zip(usable, times) {
            guard let time, let latitude = cue.latitude, let longitude = cue.longitude else { continue }
            if let last = fixTimes.last, time <= last {
                outOfOrder += 1
                if outOfOrder <= 3 { warn("\(cue.location): its time goes back (\(time) s after \(last) s); skipped") }
                continue
            }
            let seaLevel = hasSeaLevel ? cue.altitudeAboveSeaLevel : cue.heightAboveTakeoff
            let date = origin.addingTimeInterval(time)
            guard let coordinate = GeodeticCoordinate(latitude: latitude, longitude: longitude) else { continue }
            fixes.append(
                LocationFix(
                    time: date, coordinate: coordinate,
                    mode: seaLevel == nil ? .twoD : .threeD, altitudeMeanSeaLevel: seaLevel,
                    speed: cue.horizontalSpeed))
            fixTimes.append(time)
            if let gimbal = cue.gimbal {
                orientations.append(
                    OrientationSample(
                        time: date, heading: CompassDegrees.wrapped(gimbal.yaw), pitch: gimbal.pitch, roll: gimbal.roll,
                        origin: .gimbal))
            } else if let yaw = cue.airframeYaw {
                orientations.append(
                    OrientationSample(time: date, heading: CompassDegrees.wrapped(yaw), origin: .flightController))
            }
        }
        guard !fixes.isEmpty else {
            throw .malformed(
                file: file, location: first.location,
                problem: "its cues have positions but no time: neither timing lines nor the drone's clock")
        }
        if coarse { fixes = Self.smoothed(fixes, window: Self.smoothingWindow) }
        // Mixed airframe and gimbal samples: the gimbal's are the camera's, so only they are kept.
        if orientations.contains(where: { $0.origin == .gimbal }) {
            orientations.removeAll { $0.origin != .gimbal }
        }
        var summary = "\(fixes.count) fixes from \(cues.count) cues (DJI subtitles, \(Self.dialects(cues)))"
        summary += "; positions to \(decimals) decimals"
        if coarse {
            summary += String(
                format: " (~%.0f m), averaged over ±%g s", 111_320 / pow(10, Double(decimals)), Self.smoothingWindow)
        }
        let seaLevelFixes = fixes.filter { $0.altitudeMeanSeaLevel != nil }.count
        if hasSeaLevel {
            summary += "; heights: the drone's own above sea level (abs_alt or altitude)"
            if seaLevelFixes < fixes.count { summary += " for \(seaLevelFixes) of the fixes, the others none" }
        } else if usable.contains(where: { $0.heightAboveTakeoff != nil }) {
            summary += "; heights: above take-off only (rel_alt, BAROMETER or H), the take-off point taken at sea level"
        } else {
            summary += "; heights: none"
        }
        if let sample = orientations.first {
            summary +=
                sample.origin == .gimbal
                ? "; the camera's heading, pitch and roll from the gimbal (\(orientations.count) samples)"
                : "; headings from the drone's yaw (\(orientations.count) samples), which the camera follows when its gimbal is locked forward"
        }
        if !timed { summary += "; no timing lines: cue times from the drone's clock, the first at the video's start" }
        if !withoutFix.isEmpty { summary += "; cues without a fix: \(withoutFix.count)" }
        if !damaged.isEmpty { summary += "; damaged: \(damaged.count)" }
        if outOfOrder > 0 { summary += "; out of order: \(outOfOrder)" }
        track = RecordedTrack(
            file: file, fixes: fixes, orientations: orientations, warnings: warnings, warningCount: warningCount,
            summary: summary)
        if !hasSeaLevel, usable.contains(where: { $0.heightAboveTakeoff != nil }) {
            track.heightWarning =
                "heights: \(file) gives only the height above take-off (rel_alt, BAROMETER or H): the take-off point "
                + "is taken at sea level, so places with a height are drawn off by its height above sea level"
        }
    }

    /// Whether `head` (a file's first bytes) starts like a subtitle file: a cue number alone on its
    /// first line, then a timing line or a date and time.
    public static func isSubtitleFile(head: Data) -> Bool {
        let bytes = [UInt8](head.prefix(512))
        let lines = DJISubtitleParser.lineRanges(bytes)
        guard lines.count >= 2, DJISubtitleParser.isCueNumber(bytes, lines[0]) else { return false }
        return DJISubtitleParser.find(bytes, lines[1], Array("-->".utf8)) != nil
            || DJISubtitleParser.dateTime(bytes, lines[1]) != nil
    }

    /// Reads the subtitle file at `path` as a track of its own, which needs the drone's clock:
    /// without one, its times are only from the start of the video it belongs to.
    ///
    /// - Throws: `InputFileError` when the file is missing, unreadable, not a subtitle file with a
    ///   position, or without the drone's clock.
    public static func load(_ path: String) throws(InputFileError) -> RecordedTrack {
        try read(InputFile.read(path), file: path)
    }

    static func read(_ data: Data, file: String) throws(InputFileError) -> RecordedTrack {
        let subtitles = try DJISubtitleTrack(data: data, file: file)
        guard !subtitles.isRelative else {
            throw .malformed(
                file: file, location: nil,
                problem: "its cues carry no date and time, so its positions are timed only from the start of the "
                    + "video it belongs to: annotate that video instead (DJI_0001.MP4 finds DJI_0001.SRT beside it)")
        }
        return subtitles.track
    }

    /// The layouts the cues' positions were written in, joined with ` and `.
    private static func dialects(_ cues: [DJISubtitleCue]) -> String {
        var names: [String] = []
        for cue in cues where cue.hasPosition {
            if let layout = cue.layout, !names.contains(layout) { names.append(layout) }
        }
        return names.isEmpty ? "no positions" : names.joined(separator: " and ")
    }

    /// Positions averaged over `window` seconds either side, by time (heights are left alone: they
    /// are written with centimetres).
    static func smoothed(_ fixes: [LocationFix], window: Double) -> [LocationFix] {
        var result = fixes
        var low = 0
        var high = 0
        var sums = (latitude: 0.0, longitude: 0.0)
        for index in fixes.indices {
            let time = fixes[index].time
            while high < fixes.count, fixes[high].time.timeIntervalSince(time) <= window {
                sums.latitude += fixes[high].coordinate.latitude
                sums.longitude += fixes[high].coordinate.longitude
                high += 1
            }
            while time.timeIntervalSince(fixes[low].time) > window {
                sums.latitude -= fixes[low].coordinate.latitude
                sums.longitude -= fixes[low].coordinate.longitude
                low += 1
            }
            let count = Double(high - low)
            // Near the antimeridian an average of ±180° longitudes is meaningless: kept as written.
            if let average = GeodeticCoordinate(latitude: sums.latitude / count, longitude: sums.longitude / count),
                abs(average.longitude - fixes[index].coordinate.longitude) < 1
            {
                result[index].coordinate = average
            }
        }
        return result
    }
}
