import Foundation
import Positioning

/// `arcapture sync`'s report for people.
enum SyncReportText {
    static func render(_ report: SyncReport) -> String {
        var lines: [String] = []
        let track = report.track
        lines.append("track    \(track.file)")
        lines.append(
            "         \(track.fixes) fixes, \(track.start ?? "-") to \(track.end ?? "-") (\(duration(track.durationS)))"
        )
        if track.largestGapS > 0, let at = track.largestGapAt {
            lines.append("         largest gap between fixes: \(duration(track.largestGapS)) after \(at)")
        }
        if track.warnings > 0 { lines.append("         \(track.warnings) warnings while reading (see above)") }
        let footage = report.footage
        if let files = footage.files, let first = files.first, let last = files.last {
            lines.append("footage  \(first) … \(last) (\(footage.kind), \(files.count) files joined)")
        } else {
            lines.append("footage  \(footage.source) (\(footage.kind))")
        }
        let rate = String(format: "%g", footage.fps)
        var timing = "         \(footage.frames) frames at \(rate) fps"
        if footage.speed != 1 { timing += ", speed ×\(String(format: "%g", footage.speed))" }
        if footage.offsetS != 0 { timing += ", offset \(String(format: "%+.3f", footage.offsetS)) s" }
        lines.append(timing)
        lines.append("         \(footage.firstFrame) to \(footage.lastFrame) (\(duration(footage.durationS)))")
        lines.append("         start from \(footage.startOrigin)")
        for note in footage.notes { lines.append("         note: \(note)") }
        lines.append("heading  \(report.orientation)")
        let overlap = report.overlap
        lines.append(
            "overlap  \(duration(overlap.seconds)), \(String(format: "%.1f", overlap.percentOfFootage)) % of the footage; "
                + "\(overlap.framesWithPose) frames with a pose, \(overlap.framesWithoutPose) without")
        for (reason, count) in overlap.withoutPoseByReason.sorted(by: { $0.key < $1.key }) {
            lines.append("         \(count) \(reason)")
        }
        if let match = report.offsetMatch { lines += offsetLines(match) }
        lines.append("")
        for sample in report.samples {
            var line =
                "\(sample.label.padding(toLength: 7, withPad: " ", startingAt: 0)) frame \(sample.index)  \(sample.time)  "
            if let reason = sample.noPose {
                line += "no pose: \(reason)"
            } else if let latitude = sample.latitude, let longitude = sample.longitude {
                line += String(format: "%.6f, %.6f", latitude, longitude)
                if let altitude = sample.altitudeM {
                    line +=
                        String(format: ", %.1f m", altitude) + (sample.altitudeApproximate == true ? " (approx.)" : "")
                }
                if let heading = sample.headingDeg { line += String(format: "  heading %.1f°", heading) }
                if let accuracy = sample.headingAccuracyDeg { line += String(format: " ±%.1f°", accuracy) }
                if let extrapolation = sample.extrapolationS, extrapolation > 0 {
                    line += String(format: "  (extrapolated %.2f s)", extrapolation)
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The offset found by matching the footage's own GPS with the track, and what to do with it.
    static func offsetLines(_ match: SyncReport.OffsetMatch) -> [String] {
        guard let offset = match.offsetS else {
            return ["offset   not found by matching the footage's own GPS with the track: \(match.problem ?? "")"]
        }
        var lines = [
            String(format: "offset   %+.1f s", offset)
                + (match.spreadS.map { String(format: " ±%.1f s (%d windows)", $0, match.windows ?? 0) } ?? "")
                + " by matching the footage's own GPS with the track"
                + (match.applied ? " (applied: --offset auto)" : "")
        ]
        var figures = String(
            format: "         %d of %d positions compared, a median %.1f m apart", match.matchedFixes ?? 0,
            match.footageFixes ?? 0, match.medianMismatchM ?? 0)
        if let correlation = match.speedCorrelation {
            figures += String(format: "; speeds correlate %.2f", correlation)
        }
        lines.append(figures)
        if let zone = match.likelyTimeZoneS {
            lines.append(
                "         probably a time zone: \(TrackOffsetEstimate.describeTimeZone(zone))\(clockDrift(offset - zone)) "
                    + "(a clock set to local time against one in UTC)")
        }
        if let problem = match.problem {
            lines.append("         uncertain: \(problem); give --offset SECONDS after a look")
        } else if !match.applied {
            lines.append(String(format: "         use it: --offset %.1f, or --offset auto", offset))
        }
        return lines
    }

    /// ` and 12.4 s`: what a time zone leaves of an offset, when it is more than a tenth of a second.
    private static func clockDrift(_ seconds: Double) -> String {
        abs(seconds) < 0.1 ? "" : String(format: " and %+.1f s", seconds)
    }

    /// `8 min 34 s`, `4.0 s`, `2 h 03 min`.
    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.1f s", seconds) }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return "\(whole / 60) min \(String(format: "%02d", whole % 60)) s" }
        return "\(whole / 3600) h \(String(format: "%02d", whole / 60 % 60)) min"
    }
}
