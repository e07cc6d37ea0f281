import ArcaptureCore
import CaptureKit
import Foundation

/// The `--json-log` file: one JSON object per line, written as each event happens, each line with
/// one `write(2)` so a reader never sees half a record, and flushed to the disk (`fsync`) before
/// the next: a line for a frame is there after a power cut whenever the frame's file is (without
/// it, ext4 had kept none of a time-lapse's lines when the power went, in scripts/stress-power-loss).
///
/// - Important: Not thread-safe; one log belongs to the capture's writer queue.
public final class JSONLinesLog {
    /// The log file.
    public let path: String
    /// The log's descriptor: written with write(2), so a failure's errno (a full disk, an I/O
    /// error) reaches the message, which `FileHandle`'s errors do not carry.
    private let descriptor: Int32
    private var closed = false

    /// Opens the log to append to it, creating it (and the folders it goes in) when it is missing.
    /// An existing log is never cut: a time-lapse started again adds its lines after the last
    /// run's. A last line left unfinished (a power cut in the middle of its write) is ended first,
    /// so each new record stands on a line of its own.
    ///
    /// - Throws: ``OutputError`` when the file cannot be opened or its last line ended.
    public init(path: String) throws(OutputError) {
        self.path = path
        try AtomicFileWriter.makeFolders(for: path)
        let opened = SystemCall.retryingInterrupts("open") {
            open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        }
        switch opened {
        case .success(let fd):
            descriptor = fd
        case .failure(let error):
            throw OutputError(path: path, reason: "cannot create the file (\(error.errno.description))")
        }
        if !Self.endsWithNewline(path: path) {
            try append(line: "\n")
        }
    }

    /// Whether the file at `path` is empty, ends with a newline, or is not a regular file (a
    /// device or a pipe, which are not read back).
    private static func endsWithNewline(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return true }
        defer { try? handle.close() }
        var status = stat()
        guard fstat(handle.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0
        else { return true }
        guard (try? handle.seek(toOffset: UInt64(status.st_size - 1))) != nil,
            let last = try? handle.read(upToCount: 1)
        else { return true }
        return last.first == UInt8(ascii: "\n")
    }

    deinit { close() }

    /// Appends one record.
    public func append(_ record: [String: Any]) throws(OutputError) {
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: record, options: [.sortedKeys, .withoutEscapingSlashes])
        else { throw OutputError(path: path, reason: "a record could not be made into JSON", kind: .write) }
        try append(line: String(decoding: data, as: UTF8.self) + "\n")
    }

    /// Appends a line already made (ending in a newline), with one write.
    public func append(line: String) throws(OutputError) {
        var line = line
        let written = line.withUTF8 { bytes in
            Result { () throws(OutputError) in
                try AtomicFileWriter.writeAll(UnsafeRawBufferPointer(bytes), to: descriptor, path: path, atomic: false)
            }
        }
        try written.get()
        if case .failure(let error) = SystemCall.retryingInterrupts("fsync", { fsync(descriptor) }),
            error.errno != .invalidArgument
        {
            throw OutputError(path: path, writing: error.errno.rawValue)
        }
    }

    /// Flushes and closes.
    public func close() {
        guard !closed else { return }
        closed = true
        _ = SystemCall.retryingInterrupts("fsync") { fsync(descriptor) }
        _ = SystemCall.once("close") { Glibc.close(descriptor) }
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
