import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR
import Positioning

/// One `arcapture check`, from authorization to the printed report.
struct CheckRun: Sendable {
    let options: CheckOptions
    let path: String
    let location: any LocationSource
    let recorder: CheckRecorder
    let started = ContinuousClock.now
    let startDate = Date()

    /// Prepares a run; creating the `--stream-to` file first, and trying the `--junit` file's (its
    /// temporary twin, made and dropped), so an unwritable path fails before the camera is touched.
    ///
    /// - Throws: ``OutputError`` when the `--stream-to` or `--junit` file cannot be created.
    init(options: CheckOptions, path: String) throws(OutputError) {
        self.options = options
        self.path = path
        if let junit = options.junit { try AtomicFileWriter(destination: junit).discard() }
        location = options.location.map { FixedLocationSource($0) } ?? NoPositionSource()
        recorder = CheckRecorder(
            target: options.frames,
            writer: try options.streamTo.map { path throws(OutputError) in try AtomicFileWriter(destination: path) })
    }

    /// Walks the authorization flow, streams, prints the report and returns the exit status.
    func execute() async -> ExitStatus {
        var evaluation = CheckEvaluation(
            options: options, path: path, authorization: CaptureDevice.authorization(for: path), device: nil,
            locationName: location.name)
        if evaluation.authorization.status == .notDetermined && options.waitSeconds > 0 {
            let recorder = self.recorder
            guard
                await DeviceWait.wait(
                    for: path, seconds: options.waitSeconds, interruption: { _ = await recorder.outcome() })
            else {
                try? recorder.closeOutput(keep: false)
                return finish(evaluation, outcome: .interrupted)
            }
            evaluation.authorization = CaptureDevice.authorization(for: path)
        }
        guard evaluation.authorization.status == .authorized else {
            try? recorder.closeOutput(keep: false)
            return finish(evaluation, outcome: nil)
        }
        evaluation.device = CaptureDevice.inspect(path)
        if options.allFormats, let device = evaluation.device {
            let sweep = await sweepModes(device)
            evaluation.modes = sweep
            if sweep.interrupted {
                try? recorder.closeOutput(keep: false)
                return finish(evaluation, outcome: .interrupted)
            }
            if sweep.blockingError != nil {
                try? recorder.closeOutput(keep: false)
                return finish(evaluation, outcome: nil)
            }
        }
        return await stream(evaluation)
    }

    /// `--all-formats`: each advertised mode streamed in turn, before the check's own stream.
    private func sweepModes(_ device: CaptureDevice) async -> CheckModes {
        let progress = ProgressLine()
        let current = Locked("")
        progress.start { current.withLock { $0 } }
        let path = self.path
        let sweep = await CheckModes.run(
            device: device, format: options.format.pixelFormat, limit: options.maxModes, options: options,
            location: location, interruption: recorder.interruption
        ) { index, count, mode in
            current.withLock {
                $0 = "trying \(path)'s modes (--all-formats): \(index)/\(count), \(mode.pixelFormat) \(mode.size)"
            }
        }
        progress.stop()
        return sweep
    }

    /// Streams the requested frames through a session and reports.
    private func stream(_ evaluation: CheckEvaluation) async -> ExitStatus {
        var evaluation = evaluation
        let recorder = self.recorder
        let session = CaptureSession()
        session.configuration = CaptureConfiguration(
            devicePath: path, format: options.format, bufferCount: options.bufferCount,
            frameTimeout: .milliseconds(Int64(options.timeoutSeconds * 1000)))
        session.setFrameHandler { recorder.frame($0) }
        session.addRejectionObserver { recorder.rejected($0) }
        session.addPhaseObserver { recorder.phase($0) }
        session.locationSource = location
        let streamStart = ContinuousClock.now
        session.startRunning()
        let progress = ProgressLine()
        let (path, frames) = (self.path, options.frames)
        progress.start {
            let records = recorder.snapshot.records
            let dropped = records.dropFirst().reduce(0) { $0 + Int($1.droppedBefore) }
            return "streaming from \(path): \(records.count)/\(frames) frames, \(dropped) dropped"
        }
        let outcome = await recorder.outcome()
        progress.stop()
        await session.stop()
        await recorder.validationFinished()

        let snapshot = recorder.snapshot
        evaluation.records = snapshot.records
        evaluation.negotiated = snapshot.negotiated
        let statistics = session.statistics
        evaluation.timeToFirstFrame = statistics.timeToFirstFrame
        evaluation.staleBuffers = statistics.staleBuffersSkipped
        evaluation.startToFirstFrame = snapshot.firstFrameAt.map { streamStart.duration(to: $0) }
        if outcome == .completed, let negotiated = snapshot.negotiated {
            let progress = ProgressLine()
            progress.start { "starting and stopping \(path) again (--cycles \(options.cycles))" }
            let lifecycle = await CheckLifecycle.run(
                cycles: options.cycles, path: path, negotiated: negotiated, options: options, location: location,
                interruption: recorder.interruption)
            progress.stop()
            evaluation.lifecycle = lifecycle
            if lifecycle.interrupted {
                try? recorder.closeOutput(keep: false)
                return finish(evaluation, outcome: .interrupted)
            }
        }
        // The --stream-to file appears only when the whole check ran: not when a start after the
        // stream failed (a camera unplugged between two starts is 69, and keeps no file).
        do {
            try recorder.closeOutput(keep: outcome == .completed && evaluation.lifecycle?.error == nil)
        } catch {
            return finish(evaluation, outcome: .outputFailed(error.description))
        }
        return finish(evaluation, outcome: outcome)
    }

    /// Prints the report (JSON or text), writes JUnit, prints the error line, and returns the status.
    private func finish(_ evaluation: CheckEvaluation, outcome: CheckRecorder.Outcome?) -> ExitStatus {
        var evaluation = evaluation
        evaluation.outcome = outcome
        evaluation.duration = started.duration(to: .now)
        let report = evaluation.report()
        if options.json {
            Terminal.out(JSONOutput.encode(report))
        } else {
            Terminal.out(CheckReportText.render(report), terminator: "")
        }
        var status = ExitStatus(rawValue: report.exitStatus) ?? .failure
        if let junit = options.junit {
            do {
                let writer = try AtomicFileWriter(destination: junit)
                try writer.write(Array(JUnitReport.render(report, timestamp: startDate).utf8))
                try writer.commit()
            } catch {
                Terminal.error(error.description)
                if status == .ok { status = .cannotCreate }
            }
        }
        if let problem = report.error.value {
            Terminal.error(problem.reason + (problem.fix.value.map { " (\($0))" } ?? ""))
        }
        return status
    }
}
