import Foundation
import GeoAR

/// What `arcapture annotate --batch` did, row by row: the machine-readable report (`--report
/// FILE.json`, schema `arcapture.batch-report/1` in docs/json.md), rewritten whole after every
/// row so that a batch cut short by its scheduler leaves a true account of the rows it finished.
public struct BatchReport: Sendable {
    /// How a row ended.
    public enum Status: String, Sendable {
        /// Annotated now.
        case done
        /// Its output existed (a finished earlier run: outputs appear only whole), left as it was.
        case skipped
        /// annotate failed; the others still ran.
        case failed
        /// Stopped by Ctrl-C or the scheduler; the batch stopped there.
        case interrupted
    }

    /// One row's outcome.
    public struct Entry: Sendable {
        /// The row.
        public var row: BatchManifest.Row
        /// How it ended.
        public var status: Status
        /// annotate's exit status (nil when it did not run).
        public var exitStatus: Int32?
        /// Seconds it took.
        public var seconds: Double
        /// annotate's last error or warning, or why it was skipped.
        public var message: String?

        /// Creates an entry.
        public init(row: BatchManifest.Row, status: Status, exitStatus: Int32?, seconds: Double, message: String?) {
            self.row = row
            self.status = status
            self.exitStatus = exitStatus
            self.seconds = seconds
            self.message = message
        }
    }

    /// The manifest.
    public var manifest: String
    /// This run's part of it.
    public var shard: BatchShard
    /// When the run started.
    public var started: Date
    /// The rows done so far, in order.
    public var entries: [Entry] = []

    /// An empty report.
    public init(manifest: String, shard: BatchShard, started: Date) {
        self.manifest = manifest
        self.shard = shard
        self.started = started
    }

    /// How many rows ended `status`.
    public func count(_ status: Status) -> Int { entries.filter { $0.status == status }.count }

    /// The report as JSON (keys sorted, so that two runs' reports compare line by line).
    public func json(now: Date = Date()) -> [UInt8] {
        let rows: [[String: Any]] = entries.map { entry in
            var row: [String: Any] = [
                "index": entry.row.index, "line": entry.row.line, "footage": entry.row.footage,
                "output": entry.row.output, "status": entry.status.rawValue, "seconds": Self.rounded(entry.seconds),
            ]
            if let track = entry.row.track { row["track"] = track }
            if let status = entry.exitStatus { row["exit_status"] = Int(status) }
            if let message = entry.message { row["message"] = message }
            return row
        }
        let report: [String: Any] = [
            "schema": "arcapture.batch-report/1", "manifest": manifest, "shard": shard.description,
            "started": JSONLinesLog.timestamp(started), "seconds": Self.rounded(now.timeIntervalSince(started)),
            "rows": rows, "done": count(.done), "skipped": count(.skipped), "failed": count(.failed),
            "interrupted": count(.interrupted),
        ]
        let data =
            (try? JSONSerialization.data(withJSONObject: report, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return Array(data) + [UInt8(ascii: "\n")]
    }

    private static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
