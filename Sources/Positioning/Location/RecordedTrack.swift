import ArcaptureCore
import Foundation

/// Fixes and orientations recorded in a file (an NMEA log, a GPX track), in time order, with every
/// warning about what was skipped on the way in.
///
/// Times strictly increase in ``fixes`` and, per origin, in ``orientations``: loaders drop (and warn
/// about) samples whose time goes backwards, so interpolation can rely on order.
public struct RecordedTrack: Sendable {
    /// The file it was read from, as given.
    public var file: String
    /// Positions, oldest first.
    public var fixes: [LocationFix]
    /// Receiver-measured orientations (NMEA HDT, THS, HDG, PASHR), oldest first.
    public var orientations: [OrientationSample]
    /// The camera's own pitch and roll against gravity (a GoPro's GRAV), oldest first.
    public var attitudes: [CameraAttitude]
    /// The first warnings, each `FILE: line N: what` (at most ``warningLimit``).
    public var warnings: [String]
    /// How many warnings there were in all.
    public var warningCount: Int
    /// A one-line account of what was read, such as `146 fixes from 4999 lines (GGA 0, RMC 146…)`.
    public var summary: String

    /// What a run must warn of about the heights, when the file's are not above sea level or the
    /// ellipsoid (a DJI subtitle file with heights above take-off only).
    public var heightWarning: String?

    /// Warnings kept in ``warnings``; the rest are only counted.
    public static let warningLimit = 20

    /// Creates a track.
    public init(
        file: String, fixes: [LocationFix], orientations: [OrientationSample] = [], attitudes: [CameraAttitude] = [],
        warnings: [String] = [], warningCount: Int? = nil, summary: String = ""
    ) {
        self.file = file
        self.fixes = fixes
        self.orientations = orientations
        self.attitudes = attitudes
        self.warnings = Array(warnings.prefix(Self.warningLimit))
        self.warningCount = warningCount ?? warnings.count
        self.summary = summary
    }

    /// The track formats arcapture reads, in a sentence that ends a "cannot read this track"
    /// message.
    public static let formatsRead =
        "arcapture reads GPX, NMEA 0183 logs, FIT activities (.fit), DJI subtitle files (.SRT), CSV with a "
        + "header naming time, lat and lon columns (any other CSV with its columns given by name or number), KML and KMZ (gx:Track, timed placemarks), any of "
        + "them gzip-compressed (.gz), and a video's own telemetry (GoPro's GPMF, Google's CAMM, DJI's djmd and XTRA's xtmd metadata, an Insta360's trailer, the DJI .SRT beside the video, "
        + "or what ExifTool reads: dashcams, Sony, Yuneec)"

    /// The time span the fixes cover, nil without fixes.
    public var timeSpan: ClosedRange<Date>? {
        guard let first = fixes.first?.time, let last = fixes.last?.time else { return nil }
        return first...last
    }

    /// Reads an NMEA log, a GPX or KML file (KMZ too), a DJI subtitle file, a FIT activity or a CSV
    /// track, chosen by content: GPX and KML start with XML (a `kml` root tells them apart), KMZ with
    /// a zip header, a subtitle file with a cue number and its timing, FIT with its header, CSV
    /// with a header naming its latitude and longitude columns, anything else is read as NMEA. Any of them gzip-compressed (`.gpx.gz`, `.fit.gz`) is
    /// inflated first. A video's own GPS is read by the Footage module (`TrackFile.load(_:)` takes
    /// any of the three).
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - csvColumns: where a CSV track's columns are, for a file whose header arcapture cannot
    ///     read by itself: any file that is not GPX, KML, a subtitle file or FIT is then read as CSV.
    /// - Throws: `InputFileError` when the file is missing, unreadable, a video, or neither.
    public static func load(_ path: String, csvColumns: CSVColumnMap? = nil) throws(InputFileError)
        -> RecordedTrack
    {
        // A video can be gigabytes: look at its first bytes before reading anything whole.
        if MediaFileSignature.isVideoFile(path) {
            throw .malformed(
                file: path, location: nil,
                problem: "a video file: its positions are in its telemetry track, which the footage reader reads")
        }
        return try read(InputFile.read(path), file: path, csvColumns: csvColumns)
    }

    /// Reads `data`, the contents of `file`, by what it holds (as ``load(_:csvColumns:)`` does).
    static func read(_ contents: Data, file path: String, csvColumns: CSVColumnMap? = nil) throws(InputFileError)
        -> RecordedTrack
    {
        var data = contents
        // Strava's exports and rotated logs come gzip-compressed: whatever is inside is read the same.
        if GzipFile.isCompressed(data) { data = try GzipFile.inflate(data, file: path) }
        let head = String(decoding: data.prefix(512), as: UTF8.self)
        if head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("<") {
            if KMLFile.isKML(head) { return try KMLFile.read(data, file: path) }
            return try GPXFile(data: data, file: path).recordedTrack()
        }
        if KMLFile.isKMZ(data) { return try KMLFile.readKMZ(data, file: path) }
        if DJISubtitleTrack.isSubtitleFile(head: data) { return try DJISubtitleTrack.read(data, file: path) }
        if FITActivity.isFITFile(head: data) { return try FITActivity.read(data, file: path) }
        if csvColumns != nil || CSVTrackFile.isCSVTrack(head: data) {
            return try CSVTrackFile.read(data, file: path, columns: csvColumns)
        }
        return try NMEALog.read(data, file: path)
    }
}
