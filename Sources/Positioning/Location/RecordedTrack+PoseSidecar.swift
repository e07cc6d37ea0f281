import ArcaptureCore
import Foundation

extension RecordedTrack {
    /// This track with its orientations taken from a pose sidecar instead (`capture --location
    /// track.gpx --pose-sidecar poses.csv`): replayed, the sidecar's headings then arrive on the
    /// same clock as the fixes, as a receiver's own headings would.
    ///
    /// - Throws: `InputFileError/malformed(file:location:problem:)` naming the sidecar when its
    ///   times and the fixes' do not overlap (a sidecar from another day matches nothing).
    public func replacingOrientations(with sidecar: SidecarFile, file: String) throws(InputFileError)
        -> RecordedTrack
    {
        if let span = timeSpan, let first = sidecar.samples.first?.time, let last = sidecar.samples.last?.time,
            last < span.lowerBound || first > span.upperBound
        {
            let format = ISO8601DateFormatter()
            throw .malformed(
                file: file, location: nil,
                problem:
                    "its samples (\(format.string(from: first)) to \(format.string(from: last))) do not overlap "
                    + "\(self.file)'s fixes (\(format.string(from: span.lowerBound)) to "
                    + "\(format.string(from: span.upperBound)))")
        }
        var track = self
        track.orientations = sidecar.samples
        return track
    }
}
