import ArcaptureCore
import Positioning

/// A file positions are read from, whatever it is: a video's own telemetry (GoPro's GPMF, see
/// ``EmbeddedTelemetry``), a GPX track or an NMEA log, chosen by content.
public enum TrackFile {
    /// Reads the track in `path`: a video's telemetry when it is a video (told from its first
    /// bytes, never read whole), else `RecordedTrack.load(_:)`'s GPX or NMEA.
    ///
    /// - Throws: `InputFileError` when the file is missing, unreadable, or none of these.
    public static func load(_ path: String) throws(InputFileError) -> RecordedTrack {
        if MediaFileSignature.isVideoFile(path) { return try EmbeddedTelemetry.load(path) }
        return try RecordedTrack.load(path)
    }
}
