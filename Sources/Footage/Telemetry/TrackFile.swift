import ArcaptureCore
import Foundation
import Positioning

/// A file positions are read from, whatever it is: a video's own telemetry (GoPro's GPMF, see
/// ``EmbeddedTelemetry``), a GPX track or an NMEA log, chosen by content.
public enum TrackFile {
    /// Reads the track in `path`: a video's telemetry when it is a video (told from its first
    /// bytes, never read whole), else `RecordedTrack.load(_:csvColumns:)`'s GPX, KML, FIT, CSV or
    /// NMEA.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - csvColumns: where a CSV track's columns are, when its header does not say in words
    ///     arcapture knows (a video's telemetry ignores it).
    /// - Throws: `InputFileError` when the file is missing, unreadable, or none of these.
    public static func load(_ path: String, csvColumns: CSVColumnMap? = nil) throws(InputFileError) -> RecordedTrack {
        if MediaFileSignature.isVideoFile(path) { return try EmbeddedTelemetry.load(path) }
        return try RecordedTrack.load(path, csvColumns: csvColumns)
    }

    /// Reads the track of a recording its camera split into the video files `paths`, in recording
    /// order (``EmbeddedTelemetry/load(chapters:start:)``, telemetry timed only from the video's
    /// start placed at `start` when given); one path that is not a video is read as
    /// ``load(_:csvColumns:)`` reads it, with `csvColumns`.
    ///
    /// - Throws: `InputFileError` when a file is missing, unreadable, or the files are not the
    ///   videos of one recording in order.
    public static func load(chapters paths: [String], start: Date? = nil, csvColumns: CSVColumnMap? = nil)
        throws(InputFileError) -> RecordedTrack
    {
        paths.count == 1 && !MediaFileSignature.isVideoFile(paths[0])
            ? try RecordedTrack.load(paths[0], csvColumns: csvColumns)
            : try EmbeddedTelemetry.load(chapters: paths, start: start)
    }
}
