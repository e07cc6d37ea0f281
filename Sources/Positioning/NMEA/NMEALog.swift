import ArcaptureCore
import Foundation

/// Reads an NMEA 0183 log file (what a receiver wrote, one sentence per line) into a
/// ``RecordedTrack``.
public enum NMEALog {
    /// Reads `path`.
    ///
    /// Damaged sentences become warnings naming the line and are skipped; a file with no valid
    /// sentence at all is an error, since it is not an NMEA log.
    ///
    /// - Throws: `InputFileError`.
    public static func load(_ path: String) throws(InputFileError) -> RecordedTrack {
        try read(InputFile.read(path), file: path)
    }

    static func read(_ data: Data, file: String) throws(InputFileError) -> RecordedTrack {
        var decoder = NMEADecoder()
        var fixes: [LocationFix] = []
        var orientations: [OrientationSample] = []
        var warnings: [String] = []
        var warningCount = 0
        func take(_ events: [LocationEvent]) {
            for event in events {
                switch event {
                case .fix(let fix): fixes.append(fix)
                case .orientation(let sample): orientations.append(sample)
                case .warning(let text):
                    warningCount += 1
                    if warnings.count < RecordedTrack.warningLimit { warnings.append("\(file): \(text)") }
                case .status: break
                }
            }
        }
        var lineNumber = 0
        data.withUnsafeBytes { raw in
            for line in raw.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                lineNumber += 1
                let text = String(decoding: line, as: UTF8.self)
                take(decoder.decode(line: text[...], lineNumber: lineNumber))
            }
        }
        take(decoder.flush())
        let statistics = decoder.statistics
        guard statistics.sentences.values.reduce(0, +) + statistics.skipped.values.reduce(0, +) > 0 else {
            throw .malformed(
                file: file, location: nil,
                problem: statistics.damaged > 0
                    ? "no valid NMEA sentence: \(statistics.damaged) damaged (first: \(warnings.first ?? "?"))"
                    : "not a track arcapture reads (no line starts with '$'): "
                        + RecordedTrack.formatsRead)
        }
        return RecordedTrack(
            file: file, fixes: fixes, orientations: orientations.sorted { $0.time < $1.time }, warnings: warnings,
            warningCount: warningCount, summary: summary(statistics))
    }

    /// `146 fixes, 0 orientations; sentences used: GGA 147, RMC 146; skipped: …; damaged: 0`.
    static func summary(_ statistics: NMEAStatistics) -> String {
        func list(_ counts: [String: Int]) -> String {
            counts.isEmpty
                ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
        var parts = [
            "\(statistics.fixes) fixes, \(statistics.orientations) orientations from \(statistics.lines) lines",
            "used: \(list(statistics.sentences))",
            "skipped: \(list(statistics.skipped))",
            "damaged: \(statistics.damaged) (bad checksum \(statistics.badChecksums), truncated \(statistics.truncated), malformed \(statistics.malformed))",
        ]
        if statistics.epochsWithoutFix > 0 { parts.append("epochs without a fix: \(statistics.epochsWithoutFix)") }
        if statistics.nonMonotonic > 0 { parts.append("out of order: \(statistics.nonMonotonic)") }
        if statistics.magneticHeadings > 0 {
            parts.append(
                "magnetic headings made true with \(statistics.declinationModel ?? "the World Magnetic Model"): "
                    + "\(statistics.magneticHeadings)")
        }
        if statistics.unusableHeadings > 0 { parts.append("unusable headings: \(statistics.unusableHeadings)") }
        if statistics.repeatedHeadings > 0 {
            parts.append("headings after the first in an epoch: \(statistics.repeatedHeadings)")
        }
        return parts.joined(separator: "; ")
    }
}
