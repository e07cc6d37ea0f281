import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR

/// What `arcapture annotate --batch` works through: one row per recording, read from a CSV file
/// (a header naming the columns) or JSON lines (one object per line).
///
/// Columns: `footage` (required; the files of a recording its camera split, its chapters, in
/// recording order: in CSV separated by `|`, in JSON an array of strings), `output` (required), `track` (a GPX track or NMEA log; empty or
/// absent for a video with its own GPS, or footage whose options give the pose), `options` (more
/// `annotate` options for that row: in CSV one field split at spaces, in JSON an array of strings).
/// Relative paths are relative to the manifest's folder, so a manifest works from wherever a
/// scheduler starts the job. Empty lines and, in CSV, lines starting `#` are skipped; row numbers
/// count the rows only, from 0, as ``BatchShard`` and the report do.
public struct BatchManifest: Sendable {
    /// One recording to annotate.
    public struct Row: Sendable, Equatable {
        /// Its number among the rows, from 0.
        public var index: Int
        /// The manifest's line it came from, from 1.
        public var line: Int
        /// The footage (a video, an MJPEG or Y4M file, a folder of JPEGs).
        public var footage: String
        /// The video files that continue ``footage`` when its camera split the recording, in order.
        public var chapters: [String] = []
        /// The track, when the row gives one.
        public var track: String?
        /// The annotated output: a single file (a video, MJPEG or Y4M).
        public var output: String
        /// More `annotate` options for this row.
        public var options: [String]
    }

    /// The manifest's path, as given.
    public let path: String
    /// Its rows, in order.
    public let rows: [Row]

    /// Reads `path`: JSON lines when its first non-empty line starts `{`, else CSV.
    ///
    /// - Throws: `InputFileError` naming the file, the line and what is wrong.
    public init(path: String) throws(InputFileError) {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else { throw .missing(file: path) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(file: path, reason: "cannot be read")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .malformed(file: path, location: nil, problem: "not UTF-8 text")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? String($0.dropLast()) : String($0)
        }
        let folder = (path as NSString).deletingLastPathComponent
        let isJSON = lines.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.hasPrefix("{") ?? false
        var rows = try isJSON ? Self.jsonRows(lines, file: path) : Self.csvRows(lines, file: path)
        for index in rows.indices {
            rows[index].footage = Self.resolve(rows[index].footage, in: folder)
            rows[index].chapters = rows[index].chapters.map { Self.resolve($0, in: folder) }
            rows[index].track = rows[index].track.map { Self.resolve($0, in: folder) }
            rows[index].output = Self.resolve(rows[index].output, in: folder)
        }
        guard !rows.isEmpty else { throw .malformed(file: path, location: nil, problem: "no rows") }
        var outputs: [String: Int] = [:]
        for row in rows {
            if let earlier = outputs[row.output] {
                throw .malformed(
                    file: path, location: "line \(row.line)",
                    problem: "output \(row.output) is also line \(earlier)'s: every row needs its own")
            }
            outputs[row.output] = row.line
        }
        self.rows = rows
    }

    private static func resolve(_ path: String, in folder: String) -> String {
        path.hasPrefix("/") || folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
    }

    private static let columns: Set<String> = ["footage", "track", "output", "options"]

    private static func csvRows(_ lines: [String], file: String) throws(InputFileError) -> [Row] {
        var header: [String]?
        var rows: [Row] = []
        for (number, line) in lines.enumerated() {
            let location = "line \(number + 1)"
            if line.trimmingCharacters(in: .whitespaces).isEmpty || line.hasPrefix("#") { continue }
            let fields: [String]
            switch CSVLine.fields(line) {
            case .success(let found): fields = found
            case .failure(let problem): throw .malformed(file: file, location: location, problem: problem.description)
            }
            guard let names = header else {
                let named = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
                if let unknown = named.first(where: { !columns.contains($0) }) {
                    throw .malformed(
                        file: file, location: location,
                        problem:
                            "the header names a column '\(unknown)': the columns are footage, track, output, options")
                }
                guard named.contains("footage"), named.contains("output") else {
                    throw .malformed(
                        file: file, location: location,
                        problem: "the header must name footage and output (and may name track and options)")
                }
                header = named
                continue
            }
            guard fields.count == names.count else {
                throw .malformed(
                    file: file, location: location,
                    problem: "\(fields.count) fields, but the header names \(names.count) columns")
            }
            let value = { (name: String) -> String? in
                names.firstIndex(of: name).map { fields[$0].trimmingCharacters(in: .whitespaces) }
                    .flatMap { $0.isEmpty ? nil : $0 }
            }
            rows.append(
                try row(
                    index: rows.count, line: number + 1, footage: value("footage"), track: value("track"),
                    output: value("output"),
                    options: value("options").map { $0.split(separator: " ").map(String.init) } ?? [], file: file))
        }
        return rows
    }

    private static func jsonRows(_ lines: [String], file: String) throws(InputFileError) -> [Row] {
        var rows: [Row] = []
        for (number, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let location = "line \(number + 1)"
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw .malformed(file: file, location: location, problem: "not a JSON object")
            }
            if let unknown = object.keys.sorted().first(where: { !columns.contains($0) }) {
                throw .malformed(
                    file: file, location: location,
                    problem: "unknown key '\(unknown)': the keys are footage, track, output, options")
            }
            // A recording split into files: the footage's list.
            var footage = object["footage"]
            if let list = footage as? [Any] {
                guard let paths = list as? [String], !paths.isEmpty else {
                    throw .malformed(
                        file: file, location: location, problem: "footage must be a string or an array of strings")
                }
                footage = paths.joined(separator: "|")
            }
            let text = { (key: String) throws(InputFileError) -> String? in
                let value = key == "footage" ? footage : object[key]
                guard let value, !(value is NSNull) else { return nil }
                guard let string = value as? String else {
                    throw .malformed(file: file, location: location, problem: "\(key) must be a string")
                }
                return string.isEmpty ? nil : string
            }
            var options: [String] = []
            if let given = object["options"], !(given is NSNull) {
                guard let list = given as? [String] else {
                    throw .malformed(file: file, location: location, problem: "options must be an array of strings")
                }
                options = list
            }
            rows.append(
                try row(
                    index: rows.count, line: number + 1, footage: try text("footage"), track: try text("track"),
                    output: try text("output"), options: options, file: file))
        }
        return rows
    }

    private static func row(
        index: Int, line: Int, footage: String?, track: String?, output: String?, options: [String], file: String
    ) throws(InputFileError) -> Row {
        // A recording split into files: `first|second|…`.
        let files = footage.map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
        guard let footage = files.first, !footage.isEmpty else {
            throw .malformed(file: file, location: "line \(line)", problem: "no footage")
        }
        if files.contains(where: \.isEmpty) {
            throw .malformed(
                file: file, location: "line \(line)",
                problem: "an empty path among the footage's files (the files of one recording are separated by |)")
        }
        guard let output else { throw .malformed(file: file, location: "line \(line)", problem: "no output") }
        if output.hasPrefix(VirtualCameraTarget.prefix) {
            // Else it would be a file name, written in folders named "v4l2:" and "dev".
            throw .malformed(
                file: file, location: "line \(line)",
                problem: "output '\(output)': a virtual camera plays one recording at a time, at its own rate; "
                    + "a batch row writes one file (annotate FOOTAGE --output \(output) plays one)")
        }
        if output == "-" || OutputTemplate(pattern: output).variesPerFrame {
            throw .malformed(
                file: file, location: "line \(line)",
                problem: "output '\(output)': a batch row writes one file (a video, MJPEG or Y4M), the one its "
                    + "completion record describes")
        }
        if let reserved = options.first(where: {
            [
                AnnotateSettings.output.name, AnnotateFootage.batch.name, AnnotateFootage.shard.name,
                AnnotateFootage.report.name, AnnotateFootage.track.name,
            ].map { "--" + $0 }.contains($0)
        }) {
            throw .malformed(
                file: file, location: "line \(line)", problem: "options may not give \(reserved): the row's columns do")
        }
        return Row(
            index: index, line: line, footage: footage, chapters: Array(files.dropFirst()), track: track,
            output: output,
            options: options)
    }
}
