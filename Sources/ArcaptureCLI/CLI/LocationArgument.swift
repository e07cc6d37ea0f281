import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import Positioning

/// A location source named on the command line: `LAT,LON[,ALT]`, `gpsd://[HOST[:PORT]]`, a serial
/// port (`/dev/ttyACM0`, `/dev/ttyUSB0@4800`), or a recorded GPX or NMEA file.
enum LocationArgument: Sendable, Equatable {
    case fixed(GeodeticCoordinate)
    case gpsd(String)
    case serial(path: String, baudRate: Int)
    case file(String)

    /// The forms `--help` lists.
    static let forms =
        "LAT,LON[,ALT] | gpsd://HOST:PORT | /dev/ttyX[@BAUD] | FILE (.gpx .kml .fit .csv .nmea .srt .mp4…)"

    /// Parses `text`.
    init(parsing text: String, option: String) throws(UsageError) {
        if let coordinate = GeodeticCoordinate(parsing: text) {
            self = .fixed(coordinate)
        } else if text.hasPrefix("gpsd://") {
            guard GPSDLocationSource(url: text) != nil else {
                throw UsageError("--\(option): '\(text)' is not gpsd://HOST[:PORT]")
            }
            self = .gpsd(text)
        } else if text.hasPrefix("/dev/") {
            let parts = text.split(separator: "@", maxSplits: 1)
            let rate = parts.count == 2 ? Int(parts[1]) : 9600
            guard let rate, NMEASerialLocationSource.supportedBaudRates.contains(rate) else {
                let rates = NMEASerialLocationSource.supportedBaudRates.map(String.init).joined(separator: ", ")
                throw UsageError("--\(option): the baud rate in '\(text)' must be one of \(rates)")
            }
            self = .serial(path: String(parts[0]), baudRate: rate)
        } else if text.contains("/") || text.contains(".") {
            self = .file(text)
        } else {
            throw UsageError("--\(option) must be \(Self.forms), not '\(text)'")
        }
    }

    /// Whether it is a recorded track (a GPX or NMEA file), replayed.
    var isRecorded: Bool {
        if case .file = self { return true }
        return false
    }

    /// The source: files are read now (and may throw; a CSV one with its columns where
    /// `csvColumns` says) and replayed at `pace`, a track with the orientations of the pose sidecar
    /// at `poseSidecar` when one is given.
    func makeSource(pace: ReplayPace, poseSidecar: String? = nil, csvColumns: CSVColumnMap? = nil)
        throws(InputFileError) -> any LocationSource
    {
        switch self {
        case .fixed(let coordinate): return FixedLocationSource(coordinate)
        case .gpsd(let url): return GPSDLocationSource(url: url) ?? GPSDLocationSource()
        case .serial(let path, let baudRate):
            return NMEASerialLocationSource(path: path, baudRate: baudRate) ?? NoPositionSource()
        case .file(let path):
            var track = try TrackFile.load(path, csvColumns: csvColumns)
            for warning in track.warnings { Terminal.warning(warning) }
            if let heightWarning = track.heightWarning { Terminal.warning(heightWarning) }
            if let poseSidecar {
                let sidecar = try SidecarFile(contentsOf: poseSidecar)
                for warning in sidecar.warnings { Terminal.warning(warning) }
                track = try track.replacingOrientations(with: sidecar, file: poseSidecar)
            }
            return RecordedLocationSource(track: track, pace: pace)
        }
    }
}
