import Foundation

/// The `--json-log` file: one JSON object per line, written as each event happens, each line with
/// one `write(2)` so a reader never sees half a record.
///
/// - Important: Not thread-safe; one log belongs to the capture's writer queue.
public final class JSONLinesLog {
    /// The log file.
    public let path: String
    private let handle: FileHandle

    /// Creates (or truncates) the log, and the folders it goes in when they are missing.
    ///
    /// - Throws: ``OutputError`` when the file cannot be created.
    public init(path: String) throws(OutputError) {
        self.path = path
        try AtomicFileWriter.makeFolders(for: path)
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw OutputError(path: path, reason: "cannot create the file (\(String(cString: strerror(errno))))") }
        self.handle = handle
    }

    /// Appends one record.
    public func append(_ record: [String: Any]) throws(OutputError) {
        do {
            var data = try JSONSerialization.data(
                withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes])
            data.append(UInt8(ascii: "\n"))
            try handle.write(contentsOf: data)
        } catch {
            throw OutputError(path: path, reason: "write failed (\(error.localizedDescription))", kind: .write)
        }
    }

    /// Appends a line already made (ending in a newline), with one write.
    public func append(line: String) throws(OutputError) {
        do {
            try handle.write(contentsOf: Data(line.utf8))
        } catch {
            throw OutputError(path: path, reason: "write failed (\(error.localizedDescription))", kind: .write)
        }
    }

    /// Flushes and closes.
    public func close() {
        try? handle.synchronize()
        try? handle.close()
    }

    /// One record as a line of JSON (without the newline), keys sorted.
    public static func line(_ record: [String: Any]) -> String {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// ISO 8601 UTC with milliseconds, as the log writes times.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
