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
/// it by hand, here prefixed with the row's number. A row writes under its output's partial name,
/// and its output takes its final name only once whole, after its completion record
/// (``BatchCompletionRecord``, in `MANIFEST.done/`); a row whose output exists with its record is
/// skipped, one whose output exists without one is refused (it may be partial, or another file),
/// which makes a batch resumable: run it again after a failure, a preemption or a node lost and only
/// the rows left are done. One line per row goes to stderr, the written outputs to stdout; `--force`
/// does rows whose output exists again; exit status 1 when any row failed (the others still done),
/// 130 when stopped (the row under way stops cleanly, as annotate does, and the batch stops there).
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
                    let entry = runRow(
                        row, manifest: path, common: common, force: parsed.isSet(AnnotateSettings.force), child: child)
                    report.entries.append(entry)
                    say(entry)
                    if let reportPath, let failure = write(report, to: reportPath) {
                        Terminal.error(failure.description)
                        return failure.kind == .create ? .cannotCreate : .ioError
                    }
                    if entry.status == .interrupted { break }
                }
                Terminal.note(
                    "batch: \(report.count(.done)) done, \(report.count(.skipped)) skipped (done before), "
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

    /// Runs one row as its own annotate process, unless its completion record says its output is
    /// done.
    ///
    /// The row writes to its output's partial name (`out/ride.partial.mp4`); once it ends well its
    /// completion record is written, then the file takes its final name. A row that fails or is
    /// stopped leaves nothing (its partial file is removed), and a batch killed at any moment leaves
    /// a final name only on a whole output: what a later run skips is always whole.
    private static func runRow(
        _ row: BatchManifest.Row, manifest: String, common: [String], force: Bool, child: Locked<Process?>
    ) -> BatchReport.Entry {
        let started = Date()
        func failed(_ message: String) -> BatchReport.Entry {
            BatchReport.Entry(row: row, status: .failed, exitStatus: nil, seconds: 0, message: message)
        }
        // A device or a pipe (`/dev/null`, a run for its speed) is written straight into: it is
        // never done, nor removed.
        let kind = OutputPathKind(path: row.output)
        let staged = kind != .stream
        if kind == .file && !force {
            if let record = BatchCompletionRecord.read(manifest: manifest, output: row.output), record.matchesOutput {
                return BatchReport.Entry(
                    row: row, status: .skipped, exitStatus: nil, seconds: 0, message: "\(row.output) is done")
            }
            return failed(
                "\(row.output) exists, but this batch has no record of finishing it (\(BatchCompletionRecord.folder(manifest: manifest))/ "
                    + "has none, or the file changed since): it may be partial or another file; --force does the row again, replacing it"
            )
        }
        let staging = staged ? AtomicFileWriter.partialName(of: row.output) : row.output
        if staged {
            // What a stopped or killed run of this row left under the partial name: redone whole.
            for leftover in removePartialFiles(staging) {
                Terminal.note("row \(row.index): removed \(leftover), what a stopped run of the row left")
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments =
            ["annotate", row.footage] + row.chapters + ["--output", staging]
            + (row.track.map { ["--track", $0] } ?? []) + common
            + row.options
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return failed("cannot run annotate: \(error)")
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
        var outcome: BatchReport.Status =
            switch status {
            case ExitStatus.ok.rawValue: .done
            case ExitStatus.interrupted.rawValue: .interrupted
            default: .failed
            }
        var message = process.terminationReason == .uncaughtSignal ? "ended by signal \(status)" : lastProblem
        if outcome == .done && staged {
            // The record first, then the name: killed between the two, the row is simply done
            // again (its output is still under the partial name, its record replaced).
            do throws(OutputError) {
                guard let record = BatchCompletionRecord.made(for: row, finishedFile: staging) else {
                    throw OutputError(path: staging, reason: "the row ended well but left no file there", kind: .write)
                }
                try record.write(manifest: manifest)
                try AtomicFileWriter.move(staging, to: row.output, replacing: force)
            } catch {
                outcome = .failed
                message = "error: \(error.description)"
            }
        }
        if outcome != .done && staged {
            // Nothing of a row that did not end well stays: a stopped annotate keeps the frames
            // before Ctrl-C under its partial name, one whose frames all missed the track (1)
            // keeps them unannotated under the name it was given (here the partial one).
            removePartialFiles(staging)
        }
        return BatchReport.Entry(
            row: row, status: outcome, exitStatus: status, seconds: Date().timeIntervalSince(started),
            message: outcome == .done ? nil : message)
    }

    /// Removes the files a row's run writes before its output is done: `staging` (the output's
    /// partial name) and the partial name a stopped run gives that. Only files: a node found there
    /// is not the row's. Returns the paths removed.
    @discardableResult
    private static func removePartialFiles(_ staging: String) -> [String] {
        [staging, AtomicFileWriter.partialName(of: staging)].filter { path in
            OutputPathKind(path: path) == .file && (try? FileManager.default.removeItem(atPath: path)) != nil
        }
    }

    /// The row's line: what became of it.
    private static func say(_ entry: BatchReport.Entry) {
        let row = "row \(entry.row.index) (line \(entry.row.line), \(entry.row.footage))"
        switch entry.status {
        case .done:
            Terminal.note("\(row): done in \(String(format: "%.1f", entry.seconds)) s: \(entry.row.output)")
            Terminal.out(entry.row.output)
        case .skipped: Terminal.note("\(row): skipped: \(entry.row.output) is done (an earlier run's record says so)")
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
