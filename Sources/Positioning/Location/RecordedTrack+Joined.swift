import Foundation

extension RecordedTrack {
    /// The tracks of consecutive pieces of one recording (the telemetry of a camera's chapters, in
    /// order) as one track: their fixes, orientations and attitudes one after another, their
    /// warnings together.
    ///
    /// Times must keep increasing across a join, as within a file: a sample at or before the last
    /// one kept (files given out of order, or overlapping) is left out, and a warning says how
    /// many were and after which file.
    ///
    /// - Parameters:
    ///   - parts: the tracks, in recording order.
    ///   - file: what the joined track is named in messages.
    ///   - summary: its one-line account.
    public static func joined(_ parts: [RecordedTrack], file: String, summary: String) -> RecordedTrack {
        var fixes: [LocationFix] = []
        var orientations: [OrientationSample] = []
        var attitudes: [CameraAttitude] = []
        var warnings: [String] = []
        var warningCount = 0
        for (number, part) in parts.enumerated() {
            warnings += part.warnings
            warningCount += part.warningCount
            var behind = 0
            for fix in part.fixes {
                if let last = fixes.last, fix.time <= last.time {
                    behind += 1
                } else {
                    fixes.append(fix)
                }
            }
            // Orientations increase per origin (a file may hold more than one).
            var lastOrientation: [OrientationSample.Origin: Date] = [:]
            for sample in orientations { lastOrientation[sample.origin] = sample.time }
            for sample in part.orientations {
                if let last = lastOrientation[sample.origin], sample.time <= last {
                    behind += 1
                } else {
                    orientations.append(sample)
                    lastOrientation[sample.origin] = sample.time
                }
            }
            for attitude in part.attitudes {
                if let last = attitudes.last, attitude.time <= last.time {
                    behind += 1
                } else {
                    attitudes.append(attitude)
                }
            }
            if behind > 0 {
                warningCount += 1
                warnings.append(
                    "\(part.file): \(behind) samples at or before the end of the file before it "
                        + "(\(number == 0 ? "none" : parts[number - 1].file)) were left out: are the files in "
                        + "recording order?")
            }
        }
        var joined = RecordedTrack(
            file: file, fixes: fixes, orientations: orientations, attitudes: attitudes, warnings: warnings,
            warningCount: warningCount, summary: summary)
        joined.heightWarning = parts.lazy.compactMap(\.heightWarning).first
        return joined
    }
}
