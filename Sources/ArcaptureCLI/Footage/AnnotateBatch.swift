import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR

/// `arcapture annotate --batch MANIFEST [--shard K/N] [--report FILE.json] [options]`: every row of
/// a manifest (or this shard's part of it) annotated, one after the other, each exactly as
/// `arcapture annotate FOOTAGE --output OUTPUT [--track TRACK] [options] [row options]` would be.
///
/// Each row runs as its own `annotate` process (this binary, `/proc/self/exe`): a row that fails,
/// runs out of memory or crashes ends alone, and what it prints is what the user would see running
/// it by hand, here prefixed with the row's number. A row whose output exists is skipped (outputs
/// appear only whole, so it was finished; a row that fails or is stopped leaves none), which makes a
/// batch resumable: run it again after a failure or a preemption and only the rows left are done. One line per row goes to stderr, the
/// written outputs to stdout; `--force` does rows whose output exists again; exit status 1 when any row failed (the others still done), 130 when
/// stopped (the row under way stops cleanly, as annotate does, and the batch stops there).
///
/// - Important: ``run(_:arguments:)`` blocks its thread on the rows; signals are handled on
///   InterruptSignal's queue, which only asks the row under way to stop.
enum AnnotateBatch {
    /// The options the batch itself takes, which rows do not get.
    static let ownOptions: Set<String> = [
        AnnotateFootage.batch.name, AnnotateFootage.shard.name, AnnotateFootage.report.name,
    ]

    static func run(_ parsed: ParsedArguments, arguments: [String]) async -> ExitStatus {
        guard let path = parsed.text(AnnotateFootage.batch) else { return .usage }
        if let extra = parsed.positionals.first {
            Terminal.error("--batch takes its footage from the manifest: leave out '\(extra)'")
            return .usage
        }
        for option in parsed.given([
            AnnotateSettings.output.spec, AnnotateFootage.track.spec, AnnotateFootage.sidecar.spec,
        ]) {
            Terminal.error("--\(option) is a manifest column with --batch (or, for --sidecar, a row's options)")
            return .usage
        }
        let shard: BatchShard
        do {
            shard =
                try parsed.text(AnnotateFootage.shard).map { text throws(PipelineConfigurationError) in
                    try BatchShard(parsing: text)
                } ?? .all
        } catch {
            Terminal.error(error.description)
            return .usage
        }
        let manifest: BatchManifest
        do {
            manifest = try BatchManifest(path: path)
        } catch {
            Terminal.error(error.description)
            return error.cannotBeOpened ? .noInput : .dataError
        }
        let common = commonArguments(arguments)
        var report = BatchReport(manifest: path, shard: shard, started: Date())
        // The run's own account: each run rewrites it (the rows it skips say so).
        let reportPath = parsed.text(AnnotateFootage.report)
        let child = Locked<Process?>(nil)
        let stop = StopRequest()
        let mine = manifest.rows.filter { shard.contains($0.index) }
        Terminal.note(
            "batch: \(mine.count) of \(manifest.rows.count) rows of \(path)"
                + (shard == .all ? "" : " (shard \(shard): rows whose number mod \(shard.count) is \(shard.index))"))
        return await InterruptSignal.handling(
            onSignal: { number in
                // The row under way is told too (a scheduler's SIGTERM or a closed session's SIGHUP
                // reaches only this process, and is passed on as SIGTERM; a terminal's Ctrl-C
                // reached it already, and a second changes nothing there).
                if stop.request() { Terminal.note("note: stopping (Ctrl-C): the row under way finishes cleanly") }
                if let process = child.withLock({ $0 }), process.isRunning {
                    kill(process.processIdentifier, number == SIGINT ? SIGINT : SIGTERM)
                }
            },
            body: {
                for row in mine {
                    if stop.isRequested { break }
                    let entry = runRow(row, common: common, force: parsed.isSet(AnnotateSettings.force), child: child)
                    report.entries.append(entry)
                    say(entry)
                    if let reportPath, let failure = write(report, to: reportPath) {
                        Terminal.error(failure.description)
                        return failure.kind == .create ? .cannotCreate : .ioError
                    }
                    if entry.status == .interrupted { break }
                }
                Terminal.note(
                    "batch: \(report.count(.done)) done, \(report.count(.skipped)) skipped (their outputs exist), "
                        + "\(report.count(.failed)) failed"
                        + (report.count(.interrupted) > 0 || stop.isRequested ? ", stopped" : "")
                        + (reportPath.map { "; report in \($0)" } ?? ""))
                if stop.isRequested || report.count(.interrupted) > 0 { return .interrupted }
                return report.count(.failed) > 0 ? .failure : .ok
            })
    }

    /// The command line without the batch's own options (and their values), which every row gets.
    static func commonArguments(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var skipNext = false
        for argument in arguments {
            if skipNext {
                skipNext = false
                continue
            }
            let name = argument.hasPrefix("--") ? String(argument.dropFirst(2).prefix { $0 != "=" }) : ""
            if ownOptions.contains(name) {
                skipNext = !argument.contains("=")
                continue
            }
            kept.append(argument)
        }
        return kept
    }

    /// Runs one row as its own annotate process, unless its output exists.
    private static func runRow(
        _ row: BatchManifest.Row, common: [String], force: Bool, child: Locked<Process?>
    ) -> BatchReport.Entry {
        let started = Date()
        if OutputPathKind(path: row.output).isReplaced && !force {
            return BatchReport.Entry(
                row: row, status: .skipped, exitStatus: nil, seconds: 0, message: "\(row.output) exists")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments =
            ["annotate", row.footage, "--output", row.output] + (row.track.map { ["--track", $0] } ?? []) + common
            + row.options
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return BatchReport.Entry(
                row: row, status: .failed, exitStatus: nil, seconds: 0, message: "cannot run annotate: \(error)")
        }
        child.withLock { $0 = process }
        // What the row prints, line by line as it comes, with its number, until it closes stderr
        // (it ends); the last error or warning is the report's message.
        var lastProblem: String?
        var pending = Data()
        let handle = errors.fileHandleForReading
        while case let chunk = handle.availableData, !chunk.isEmpty {
            pending.append(chunk)
            while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<end], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...end)
                FileHandle.standardError.write(Data("row \(row.index): \(line)\n".utf8))
                if line.hasPrefix("error: ") || line.hasPrefix("warning: ") { lastProblem = line }
            }
        }
        process.waitUntilExit()
        child.withLock { $0 = nil }
        let status = process.terminationStatus
        let outcome: BatchReport.Status =
            switch status {
            case ExitStatus.ok.rawValue: .done
            case ExitStatus.interrupted.rawValue: .interrupted
            default: .failed
            }
        if outcome != .done {
            // An output exists only for a row that is done: a stopped annotate keeps the frames
            // before Ctrl-C, and one whose frames all missed the track (1) keeps them unannotated,
            // either of which a later run would skip as finished. The file is this row's own (a
            // row whose output existed was skipped, unless --force). Only a file: a row written
            // to a device or a pipe (`/dev/null`) leaves nothing to remove, and the node is not ours.
            if OutputPathKind(path: row.output) == .file { try? FileManager.default.removeItem(atPath: row.output) }
            // A stopped row's output appears under its partial name instead. (A --sidecar among a
            // row's options is not removed, as before: a stopped row leaves it under its partial name.)
            let partial = AtomicFileWriter.partialName(of: row.output)
            if OutputPathKind(path: partial) == .file { try? FileManager.default.removeItem(atPath: partial) }
        }
        let message = process.terminationReason == .uncaughtSignal ? "ended by signal \(status)" : lastProblem
        return BatchReport.Entry(
            row: row, status: outcome, exitStatus: status, seconds: Date().timeIntervalSince(started),
            message: outcome == .done ? nil : message)
    }

    /// The row's line: what became of it.
    private static func say(_ entry: BatchReport.Entry) {
        let row = "row \(entry.row.index) (line \(entry.row.line), \(entry.row.footage))"
        switch entry.status {
        case .done:
            Terminal.note("\(row): done in \(String(format: "%.1f", entry.seconds)) s: \(entry.row.output)")
            Terminal.out(entry.row.output)
        case .skipped: Terminal.note("\(row): skipped: \(entry.row.output) exists")
        case .failed:
            Terminal.note("\(row): failed (\(entry.exitStatus.map(String.init) ?? "not run")): \(entry.message ?? "")")
        case .interrupted: Terminal.note("\(row): stopped (Ctrl-C); its output is removed, to be done again")
        }
    }

    private static func write(_ report: BatchReport, to path: String) -> OutputError? {
        do {
            try CaptureOutputWriter.writeFile(path, report.json())
            return nil
        } catch {
            return error
        }
    }
}
