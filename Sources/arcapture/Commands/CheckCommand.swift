import CaptureKit
import Foundation

/// `arcapture check`: the camera smoke test.
enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        overview: """
            Test whether a camera works. Walks the authorization flow (present, permitted, not busy, a \
            capture node), negotiates a format, streams N frames, and reports the format chosen and why, \
            the measured frame rate against the applied one, dropped and invalid frames, timestamp \
            monotonicity and jitter, and the time to the first frame.
            """,
        usage: """
            [--device PATH] [--frames N] [--format FOURCC|auto] [--size WxH] [--fps N] [--libv4l2] \
            [--json] [--junit FILE] [more options]
            """,
        arguments: [],
        options: [
            .value(
                "device", "PATH", default: "the first capture device found, else /dev/video0",
                help: "The device node or a /dev/v4l/by-id or by-path link."),
            .value("frames", "N", default: "30", help: "How many frames to stream (at least 2)."),
            .value(
                "format", "FOURCC", default: "auto",
                help: "The pixel format, such as YUYV or MJPG; 'auto' picks the best for the size and rate."),
            .value("size", "WxH", default: "the driver's current size", help: "The frame size, such as 1280x720."),
            .value("fps", "N", default: "the fastest offered up to 30", help: "The frame rate to request."),
            .value("buffers", "N", default: "4", help: "How many mmap buffers to request."),
            .flag("libv4l2", help: "Capture through libv4l2's conversion layer instead of raw ioctls."),
            .value("timeout", "SECONDS", default: "5", help: "Fail when no frame arrives for this long."),
            .value(
                "wait", "SECONDS", default: "0",
                help: "Wait this long for an absent device to appear (a camera being plugged in)."),
            .value(
                "location", "LAT,LON[,ALT]", default: "none",
                help: "A fixed position for the session; without it the check declares that it needs none."),
            .value(
                "max-drops", "N", default: "0",
                help: "Dropped frames (sequence gaps) allowed before the drops check fails."),
            .value(
                "fps-tolerance", "PERCENT", default: "10",
                help: "How far below the applied rate the measured rate may be."),
            .value(
                "stream-to", "FILE",
                help: "Write the valid frames, exactly as received and concatenated, to FILE (written atomically)."),
            .flag("json", help: "Print the report as JSON (schema arcapture.check/1, see docs/json.md)."),
            .value("junit", "FILE", help: "Also write the report as JUnit XML to FILE, for CI systems."),
        ],
        discussion: """
            EXIT STATUS:
              0    every check passed
              1    a check failed (frame rate, drops, timestamps or frame validity)
              64   bad command line
              69   the device is missing, gone, not a capture node, unplugged while streaming, or lacks the format
              73   the --stream-to or --junit file cannot be written
              74   the stream failed or stalled (no frame within --timeout)
              75   the device is busy: another process is streaming from it
              77   permission denied
              130  interrupted (Ctrl-C)

            EXAMPLES:
              arcapture check
              arcapture check --device /dev/video2 --size 1280x720 --fps 30 --frames 90 --junit camera.xml
              arcapture check --wait 30 --json      # wait for a camera to be plugged in
            """)

    static func run(_ arguments: [String]) async -> ExitStatus {
        let options: CheckOptions
        do {
            options = try CheckOptions(ArgumentParser.parse(arguments, spec: spec))
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        let started = ContinuousClock.now
        let startDate = Date()
        let path = options.devicePath ?? defaultDevicePath()
        let location: any LocationSource = options.location.map { FixedLocationSource($0) } ?? NoPositionSource()
        var evaluation = CheckEvaluation(
            options: options, path: path, authorization: CaptureDevice.authorization(for: path), device: nil,
            locationName: location.name)

        let recorder: CheckRecorder
        do {
            recorder = CheckRecorder(target: options.frames, writer: try options.streamTo.map(AtomicFileWriter.init))
        } catch {
            Terminal.error(error.description)
            return .cannotCreate
        }
        let interrupt = InterruptSignal { _ in recorder.interrupt() }
        defer { interrupt.cancel() }

        if evaluation.authorization.status == .notDetermined && options.waitSeconds > 0 {
            Terminal.note("waiting up to \(FrameIntervalText.rate(options.waitSeconds)) s for '\(path)'…")
            let granted = await waitForDevice(path, seconds: options.waitSeconds, recorder: recorder)
            if granted == nil {
                return finish(evaluation, outcome: .interrupted, started: started, startDate: startDate)
            }
            evaluation.authorization = CaptureDevice.authorization(for: path)
        }
        guard evaluation.authorization.status == .authorized else {
            try? recorder.closeOutput(keep: false)
            return finish(evaluation, outcome: nil, started: started, startDate: startDate)
        }
        evaluation.device = CaptureDevice.inspect(path)

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
        let outcome = await recorder.outcome()
        await session.stop()

        let snapshot = recorder.snapshot
        evaluation.records = snapshot.records
        evaluation.negotiated = snapshot.negotiated
        evaluation.timeToFirstFrame = session.statistics.timeToFirstFrame
        evaluation.startToFirstFrame = snapshot.firstFrameAt.map { streamStart.duration(to: $0) }
        do {
            try recorder.closeOutput(keep: outcome == .completed)
        } catch {
            return finish(evaluation, outcome: .outputFailed(error.description), started: started, startDate: startDate)
        }
        return finish(evaluation, outcome: outcome, started: started, startDate: startDate)
    }

    /// Waits for an absent device; nil when interrupted (an interrupt ends the recorder's run, which
    /// cancels the wait).
    private static func waitForDevice(_ path: String, seconds: Double, recorder: CheckRecorder) async -> Bool? {
        let wait = Task { await CaptureDevice.requestAccess(for: path, timeout: .milliseconds(Int64(seconds * 1000))) }
        let interrupted = Task {
            _ = await recorder.outcome()
            wait.cancel()
        }
        let granted = await wait.value
        interrupted.cancel()
        if case .some(.interrupted) = recorder.peekOutcome { return nil }
        return granted
    }

    /// Prints the report (JSON or text), writes JUnit, prints the error line, and returns the status.
    private static func finish(
        _ evaluation: CheckEvaluation, outcome: CheckRecorder.Outcome?, started: ContinuousClock.Instant,
        startDate: Date
    ) -> ExitStatus {
        var evaluation = evaluation
        evaluation.outcome = outcome
        evaluation.duration = started.duration(to: .now)
        let report = evaluation.report()
        if evaluation.options.json {
            Terminal.out(JSONOutput.encode(report))
        } else {
            Terminal.out(CheckReportText.render(report), terminator: "")
        }
        var status = ExitStatus(rawValue: report.exitStatus) ?? .failure
        if let junit = evaluation.options.junit {
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
        } else if status == .interrupted {
            Terminal.error("interrupted")
        }
        return status
    }

    /// The first capture node this process may use, else the first capture node, else /dev/video0.
    static func defaultDevicePath() -> String {
        let devices = CaptureDevice.discover().filter(\.isCaptureNode)
        return (devices.first { $0.authorization.status == .authorized } ?? devices.first)?.path ?? "/dev/video0"
    }
}
