import ArcaptureCore
import Foundation

/// A per-frame orientation file: CSV with a header, or JSON lines, each row a time and a heading,
/// pitch and roll (degrees), as gimbals, flight controllers and phone apps export them.
///
/// CSV:
/// ```
/// time,heading,pitch,roll,heading_accuracy
/// 2024-05-01T10:00:00.000Z,92.5,-3.0,0.4,2.0
/// ```
/// JSON lines: `{"time": "2024-05-01T10:00:00.000Z", "heading": 92.5, "pitch": -3, "roll": 0.4}`.
///
/// `time` is ISO 8601 UTC or seconds since 1970; `pitch`, `roll` and `heading_accuracy` are
/// optional. Blank lines and lines starting with `#` are skipped. A row that does not parse is an
/// error naming the file and line (the file is wrong, and guessing would misplace every marker
/// after it); a row whose time is not after the previous row's is skipped with a warning.
public struct SidecarFile: Sendable {
    /// The file, as given.
    public var file: String
    /// The samples, in time order.
    public var samples: [OrientationSample]
    /// Rows skipped, each `FILE: line N: why`.
    public var warnings: [String]

    /// Reads `path`.
    ///
    /// - Throws: `InputFileError`.
    public init(contentsOf path: String) throws(InputFileError) {
        try self.init(data: InputFile.read(path), file: path)
    }

    /// Parses `data`; `file` names it in messages.
    ///
    /// - Throws: `InputFileError/malformed(file:location:problem:)`.
    public init(data: Data, file: String) throws(InputFileError) {
        self.file = file
        samples = []
        warnings = []
        var columns: [String]?
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        for (offset, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            let number = offset + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let row: [String: String]
            if line.hasPrefix("{") {
                row = try Self.jsonRow(line, file: file, line: number)
            } else if let header = columns {
                let values = line.split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard values.count == header.count else {
                    throw .malformed(
                        file: file, location: "line \(number)",
                        problem: "\(values.count) values for \(header.count) columns (\(header.joined(separator: ",")))"
                    )
                }
                row = Dictionary(zip(header, values)) { first, _ in first }
            } else {
                let header = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                guard header.contains("time"), header.contains("heading") else {
                    throw .malformed(
                        file: file, location: "line \(number)",
                        problem:
                            "the first line must be a CSV header with 'time' and 'heading' columns, or a JSON object")
                }
                columns = header
                continue
            }
            let sample = try Self.sample(row, file: file, line: number)
            if let last = samples.last, sample.time <= last.time {
                warnings.append(
                    "\(file): line \(number): time \(UTCTime.format(sample.time)) is not after the previous row's; skipped"
                )
                continue
            }
            samples.append(sample)
        }
        guard !samples.isEmpty else { throw .malformed(file: file, location: nil, problem: "no orientation rows") }
    }

    private static func jsonRow(_ line: String, file: String, line number: Int) throws(InputFileError) -> [String:
        String]
    {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw .malformed(file: file, location: "line \(number)", problem: "not a JSON object")
        }
        var row: [String: String] = [:]
        for (key, value) in object {
            if let text = value as? String {
                row[key.lowercased()] = text
            } else if let number = value as? NSNumber {
                row[key.lowercased()] = number.stringValue
            }
        }
        return row
    }

    private static func sample(_ row: [String: String], file: String, line: Int) throws(InputFileError)
        -> OrientationSample
    {
        func number(_ key: String, required: Bool) throws(InputFileError) -> Double? {
            guard let text = row[key], !text.isEmpty else {
                if required { throw .malformed(file: file, location: "line \(line)", problem: "no '\(key)'") }
                return nil
            }
            guard let value = Double(text), value.isFinite else {
                throw .malformed(file: file, location: "line \(line)", problem: "\(key) '\(text)' is not a number")
            }
            return value
        }
        guard let timeText = row["time"], !timeText.isEmpty else {
            throw .malformed(file: file, location: "line \(line)", problem: "no 'time'")
        }
        guard let time = UTCTime.parse(timeText) ?? Double(timeText).map(Date.init(timeIntervalSince1970:)) else {
            throw .malformed(
                file: file, location: "line \(line)",
                problem: "time '\(timeText)' is neither ISO 8601 nor seconds since 1970")
        }
        guard let heading = try number("heading", required: true) else {
            throw .malformed(file: file, location: "line \(line)", problem: "no 'heading'")
        }
        return OrientationSample(
            time: time, heading: heading, pitch: try number("pitch", required: false),
            roll: try number("roll", required: false), headingAccuracy: try number("heading_accuracy", required: false),
            origin: .sidecar)
    }

    /// The samples as a track for ``RecordedLocationSource``, which plays them as a pose source.
    public var recordedTrack: RecordedTrack {
        RecordedTrack(
            file: file, fixes: [], orientations: samples, warnings: warnings,
            summary: "\(samples.count) orientations")
    }
}
