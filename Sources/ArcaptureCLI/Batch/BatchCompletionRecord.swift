import ArcaptureCore
import Foundation
import GeoAR

/// What marks a batch row done: a small JSON file in the folder beside the manifest
/// (`fleet.csv` → `fleet.csv.done/`), one per output, written once the row's output is whole and
/// before it appears under its name. A row is skipped only when its output exists *and* its record
/// says it is that file (its size and modification time): an output without a record (a parent
/// killed at the wrong moment in a version before records, a file from elsewhere) is never taken
/// as done.
///
/// One file per output rather than one journal: shards of a batch run at once on different
/// machines over a shared folder, where appends from several writers interleave (NFS has no atomic
/// `O_APPEND`); each output belongs to one row, so each record has one writer.
struct BatchCompletionRecord: Codable, Equatable {
    /// The output's absolute path (``absolutePath(_:)``): the same whichever folder the batch runs
    /// from (by hand, or a scheduler's `--chdir`).
    var output: String
    /// The footage it was made from.
    var footage: String
    /// The manifest's line of the row.
    var line: Int
    /// The output's size in bytes when it was finished.
    var bytes: Int64
    /// Its modification time when it was finished, in nanoseconds since 1970 (kept by the rename
    /// that gives it its name, changed by anything that writes to it after).
    var modifiedNanoseconds: Int64
    /// When the row finished.
    var finished: Date

    /// The folder the records of `manifest`'s rows are in.
    static func folder(manifest: String) -> String { manifest + ".done" }

    /// `path` made absolute against the current folder, `.` and `..` resolved: a row's output
    /// resolved against a relative manifest path is relative to where the batch runs, which a rerun
    /// from elsewhere changes.
    static func absolutePath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// The record's path for `output`: its name is a hash of the output's absolute path (FNV-1a,
    /// 64 bits: any name-safe digest would do, and the record repeats the path, which is compared).
    static func path(manifest: String, output: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolutePath(output).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return folder(manifest: manifest) + "/" + String(hash, radix: 16) + ".json"
    }

    /// The size and modification time of the file at `path`, nil when there is no regular file.
    static func identity(of path: String) -> (bytes: Int64, modifiedNanoseconds: Int64)? {
        var info = stat()
        guard case .success = SystemCall.retryingInterrupts("stat", { stat(path, &info) }),
            info.st_mode & S_IFMT == S_IFREG
        else { return nil }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// The record of `row`'s output, made from the finished file at `finishedFile`; nil when it is
    /// not a regular file.
    static func made(for row: BatchManifest.Row, finishedFile: String) -> BatchCompletionRecord? {
        guard let identity = identity(of: finishedFile) else { return nil }
        return BatchCompletionRecord(
            output: absolutePath(row.output), footage: absolutePath(row.footage), line: row.line, bytes: identity.bytes,
            modifiedNanoseconds: identity.modifiedNanoseconds, finished: Date())
    }

    /// The record kept for `output`, nil when there is none, it cannot be read or it is another
    /// output's (either way the row is not taken as done).
    static func read(manifest: String, output: String) -> BatchCompletionRecord? {
        guard let data = FileManager.default.contents(atPath: path(manifest: manifest, output: output)) else {
            return nil
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let record = try? decoder.decode(BatchCompletionRecord.self, from: data),
            record.output == absolutePath(output)
        else { return nil }
        return record
    }

    /// Whether this record describes the file now at ``output``.
    var matchesOutput: Bool {
        guard let identity = Self.identity(of: output) else { return false }
        return identity.bytes == bytes && identity.modifiedNanoseconds == modifiedNanoseconds
    }

    /// Writes the record for `manifest` (atomically, replacing an older one for the same output).
    ///
    /// - Throws: `OutputError`.
    func write(manifest: String) throws(OutputError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        let path = Self.path(manifest: manifest, output: output)
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(self)) + [UInt8(ascii: "\n")]
        } catch {
            throw OutputError(path: path, reason: "\(error)", kind: .write)
        }
        try CaptureOutputWriter.writeFile(path, bytes)
    }
}
