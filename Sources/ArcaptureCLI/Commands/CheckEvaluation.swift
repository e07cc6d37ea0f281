import CaptureKit
import Foundation

/// Everything a check run gathered, and the verdicts drawn from it.
struct CheckEvaluation: Sendable {
    var options: CheckOptions
    var path: String
    var authorization: Authorization
    var device: CaptureDevice?
    var locationName: String
    var outcome: CheckRecorder.Outcome?
    var records: [FrameRecord] = []
    var negotiated: NegotiatedFormat?
    var timeToFirstFrame: Duration?
    var startToFirstFrame: Duration?
    /// Buffers the session skipped as filled before STREAMON (see `CaptureStatistics`).
    var staleBuffers = 0
    var duration: Duration = .zero
    /// The starts and stops after the stream (`--cycles`); nil when the stream did not complete.
    var lifecycle: CheckLifecycle?
    /// Every mode streamed (`--all-formats`); nil when not asked for.
    var modes: CheckModes?

    /// The failure that stopped the check: before its measurements, or at a start of the
    /// lifecycle after them.
    var blockingError: CaptureError? {
        if let problem = authorization.problem { return problem }
        if case .failed(let error) = outcome { return error }
        if let error = modes?.blockingError { return error }
        return lifecycle?.error
    }

    /// The verdicts, in the order they are reported: `modes` last, when asked for.
    func checks(_ analysis: CheckAnalysis) -> [CheckItem] {
        let items = streamChecks(analysis)
        guard let modes else { return items }
        return items + [modesItem(modes)]
    }

    /// The verdicts on the access, the device, the stream and the lifecycle.
    private func streamChecks(_ analysis: CheckAnalysis) -> [CheckItem] {
        var items: [CheckItem] = []
        if let problem = authorization.problem {
            items.append(CheckItem("access", .fail, "\(authorization.status.rawValue): \(problem.reason)"))
            return items + skipped(after: "access")
        }
        items.append(
            CheckItem("access", .pass, "authorized: '\(path)' opens read-write and no other process streams from it"))
        if let capability = device?.capability {
            let planes = capability.isMultiplanarOnly ? "multi-planar" : "single-planar"
            items.append(
                CheckItem(
                    "device", .pass,
                    "video capture node, \(planes), mmap streaming (\(capability.card), driver \(capability.driver) \(capability.versionString))"
                ))
        }
        guard let negotiated else {
            let reason = blockingError?.reason ?? "the stream did not start"
            items.append(CheckItem("format", .fail, reason))
            return items + skipped(after: "format")
        }
        items.append(formatItem(negotiated))
        items.append(streamItem(analysis))
        guard analysis.received > 0 else { return items + skipped(after: "stream") }
        items.append(rateItem(analysis, negotiated))
        items.append(dropsItem(analysis))
        items.append(timestampsItem(analysis))
        items.append(framesItem(analysis))
        items.append(pictureItem(analysis))
        return items + lifecycleItems()
    }

    private func skipped(after name: String) -> [CheckItem] {
        let order = [
            "access", "device", "format", "stream", "frame-rate", "drops", "timestamps", "frames", "picture",
            "restarts",
            "stop-queued", "reopen",
        ]
        guard let index = order.firstIndex(of: name) else { return [] }
        return order[(index + 1)...].map { CheckItem($0, .skip, "not run: '\(name)' failed") }
    }

    private func formatItem(_ negotiated: NegotiatedFormat) -> CheckItem {
        let format = negotiated.format
        var detail = "\(format.pixelFormat) \(format.size)"
        if let interval = negotiated.frameInterval { detail += " at \(interval)" }
        // A compressed frame's size varies: sizeimage is only the buffer's (v4l2loopback gives W·H·4).
        let compressed = format.pixelFormat == .mjpeg || format.pixelFormat == .jpeg
        detail +=
            compressed
            ? ", \(negotiated.bufferCount) buffers of \(format.sizeImage) bytes"
            : ", \(format.sizeImage) bytes per frame, \(negotiated.bufferCount) buffers"
        detail += negotiated.usesLibV4L2 ? " (through libv4l2)" : " (raw ioctls)"
        let notes = Array(negotiated.choice.explanation.dropFirst()) + negotiated.adjustments
        return CheckItem("format", .pass, detail, notes: notes)
    }

    private func streamItem(_ analysis: CheckAnalysis) -> CheckItem {
        var detail = "\(analysis.received)/\(options.frames) frames"
        if let first = timeToFirstFrame {
            detail += String(format: ", first frame %.1f ms after STREAMON", milliseconds(first))
        }
        if let start = startToFirstFrame { detail += String(format: " (%.1f ms after start)", milliseconds(start)) }
        var notes: [String] = []
        if staleBuffers > 0 {
            notes.append(
                "\(staleBuffers) buffer\(staleBuffers == 1 ? "" : "s") filled before STREAMON skipped: the driver's leftover from before this stream, not a frame of it"
            )
        }
        switch outcome {
        case .completed:
            return CheckItem("stream", .pass, detail, notes: notes)
        case .failed(let error):
            return CheckItem("stream", .fail, detail + ": " + error.reason, notes: notes)
        case .interrupted:
            return CheckItem("stream", .fail, detail + ": interrupted", notes: notes)
        case .outputFailed(let message):
            return CheckItem("stream", .fail, detail + ": " + message, notes: notes)
        case nil:
            return CheckItem("stream", .fail, detail, notes: notes)
        }
    }

    private func rateItem(_ analysis: CheckAnalysis, _ negotiated: NegotiatedFormat) -> CheckItem {
        guard let measured = analysis.measuredFPS else {
            return CheckItem("frame-rate", .fail, "too few frames with distinct timestamps to measure a rate")
        }
        let measuredText = "\(FrameIntervalText.rate(measured)) fps measured"
        guard let applied = negotiated.frameInterval?.framesPerSecond else {
            return CheckItem("frame-rate", .skip, "\(measuredText); the driver reports no frame rate to compare with")
        }
        let minimum = applied * (1 - options.fpsTolerancePercent / 100)
        let detail =
            "\(measuredText), \(FrameIntervalText.rate(applied)) fps applied (at least \(FrameIntervalText.rate(minimum)) required)"
        return CheckItem("frame-rate", measured >= minimum ? .pass : .fail, detail)
    }

    private func dropsItem(_ analysis: CheckAnalysis) -> CheckItem {
        var detail = "\(analysis.dropped) frame\(analysis.dropped == 1 ? "" : "s") dropped"
        if let first = analysis.firstSequence, let last = analysis.lastSequence {
            detail += " (sequence \(first) to \(last))"
        }
        detail += ", at most \(options.maxDrops) allowed"
        return CheckItem("drops", analysis.dropped <= options.maxDrops ? .pass : .fail, detail)
    }

    private func timestampsItem(_ analysis: CheckAnalysis) -> CheckItem {
        var detail = analysis.monotonic ? "monotonic" : "NOT monotonic: a timestamp went backwards or repeated"
        if let mean = analysis.intervalMeanMilliseconds, let jitter = analysis.jitterMilliseconds,
            let deviation = analysis.maxDeviationMilliseconds
        {
            detail += String(
                format: "; interval %.2f ms mean, jitter %.2f ms, max deviation %.2f ms", mean, jitter, deviation)
        }
        return CheckItem("timestamps", analysis.monotonic ? .pass : .fail, detail)
    }

    private func framesItem(_ analysis: CheckAnalysis) -> CheckItem {
        var detail = "\(analysis.valid)/\(analysis.received) valid"
        if let format = negotiated?.format {
            let compressed = format.pixelFormat == .mjpeg || format.pixelFormat == .jpeg
            let structureOnly = records.filter(\.structureOnly).count
            if !compressed {
                detail += " (\(format.sizeImage) bytes each)"
            } else if structureOnly == 0 {
                detail += " (each a JPEG that decodes to \(format.size))"
            } else {
                detail +=
                    " (\(records.filter(\.decoded).count) decoded to \(format.size); \(structureOnly) checked for structure only: the decoder fell behind the camera)"
            }
        }
        if let problem = records.first(where: { $0.problem != nil }) {
            detail += "; first invalid: frame \(problem.sequence): \(problem.problem ?? "")"
        }
        return CheckItem("frames", analysis.invalid == 0 ? .pass : .fail, detail)
    }

    /// Whether the camera sees anything: not frozen (every frame the one before, byte for byte),
    /// not black, not one flat colour, by ``PictureThresholds``.
    private func pictureItem(_ analysis: CheckAnalysis) -> CheckItem {
        var failures: [String] = []
        if analysis.valid >= 2 && analysis.repeatedFrames == analysis.valid - 1 {
            failures.append(
                "frozen: all \(analysis.valid) frames are one picture, byte for byte (a stalled sensor or a driver repeating its last buffer)"
            )
        }
        let read = analysis.pictureFrames
        let figures = analysis.lumaMean.map { mean in
            String(format: "luma mean %.1f, spread %.1f of 255", mean, analysis.lumaSpread ?? 0)
        }
        if read > 0, analysis.blackFrames == read {
            failures.append(
                "black: \(figures ?? "") in every frame read (a capped lens, no light, or a sensor that delivers nothing; black is a mean below \(Int(PictureThresholds.blackMean)) and a spread below \(Int(PictureThresholds.blackSpread)))"
            )
        } else if read > 0, analysis.flatFrames == read {
            failures.append(
                "one flat colour: \(figures ?? "") in every frame read (flat is a spread below \(Int(PictureThresholds.flatSpread)))"
            )
        }
        var notes: [String] = []
        if failures.isEmpty && analysis.repeatedFrames > 0 {
            notes.append(
                "\(analysis.repeatedFrames) frame\(analysis.repeatedFrames == 1 ? "" : "s") repeated the one before, byte for byte"
            )
        }
        if failures.isEmpty && read > 0 && (analysis.blackFrames > 0 || analysis.flatFrames > 0) {
            notes.append("\(analysis.blackFrames) black and \(analysis.flatFrames) flat of \(read) frames read")
        }
        if !failures.isEmpty { return CheckItem("picture", .fail, failures.joined(separator: "; "), notes: notes) }
        guard read > 0, let figures else {
            let format = negotiated.map { "\($0.format.pixelFormat)" } ?? "this format"
            return CheckItem(
                "picture", .skip,
                "not frozen; brightness not read: \(format) is a format whose luma arcapture does not read",
                notes: notes)
        }
        let decoded = records.contains(where: \.decoded) && read < analysis.valid ? " (the frames decoded)" : ""
        return CheckItem(
            "picture", .pass, "not frozen, black or flat: \(figures) over \(read) frames\(decoded)", notes: notes)
    }

    /// `--all-formats`: every mode tried streamed as advertised.
    private func modesItem(_ modes: CheckModes) -> CheckItem {
        let failed = modes.trials.filter { $0.problem != nil }
        var detail =
            "\(modes.trials.count - failed.count) of \(modes.trials.count) modes tried streamed \(CheckModes.framesPerMode) valid frames as advertised"
        detail += " (\(modes.advertised.count) advertised"
        let untried = modes.advertised.count - modes.trials.count
        if untried > 0 {
            detail +=
                modes.interrupted || modes.blockingError != nil
                ? ", \(untried) not tried" : ", \(untried) over --max-modes \(modes.limit)"
        }
        detail += ")"
        let notes = failed.prefix(8).map { "\(ModeTable.name($0.mode)): \($0.problem ?? "")" }
        if modes.interrupted { return CheckItem("modes", .skip, detail + "; interrupted", notes: notes) }
        if modes.advertised.isEmpty {
            return CheckItem("modes", .skip, "the driver enumerates no frame sizes, so there is no mode to try")
        }
        return CheckItem("modes", failed.isEmpty ? .pass : .fail, detail, notes: notes)
    }

    /// The `--cycles` checks: `restarts` (each start to its first frame), `stop-queued` (a stop
    /// with every buffer queued) and `reopen` (a close and open after it). Skipped when the stream
    /// did not complete, or with `--cycles 0`.
    private func lifecycleItems() -> [CheckItem] {
        let names = ["restarts", "stop-queued", "reopen"]
        guard let lifecycle else {
            return names.map { CheckItem($0, .skip, "not run: the stream did not complete") }
        }
        guard lifecycle.requested > 0 else { return names.map { CheckItem($0, .skip, "not run: --cycles 0") } }
        let times = lifecycle.cycles.compactMap(\.timeToFirstFrame).map { String(format: "%.1f", milliseconds($0)) }
        var items: [CheckItem] = []
        let started = lifecycle.cycles.filter { $0.problem == nil }.count
        let restarts =
            "\(started) of \(lifecycle.requested) starts streamed, each on a fresh open"
            + (times.isEmpty ? "" : ": first frame \(times.joined(separator: ", ")) ms after STREAMON")
        if let failed = lifecycle.cycles.first(where: { $0.problem != nil }) {
            items.append(
                CheckItem("restarts", .fail, restarts + "; start \(started + 1) failed: \(failed.problem ?? "")"))
            return items + names.dropFirst().map { CheckItem($0, .skip, "not run: 'restarts' failed") }
        }
        items.append(CheckItem("restarts", lifecycle.interrupted ? .skip : .pass, restarts))
        guard let queued = lifecycle.stopWithBuffersQueued else {
            return items + names.dropFirst().map { CheckItem($0, .skip, "not run: interrupted") }
        }
        if let problem = queued.problem {
            items.append(CheckItem("stop-queued", .fail, "a start to be stopped at once failed: \(problem)"))
            return items + [CheckItem("reopen", .skip, "not run: 'stop-queued' failed")]
        }
        let before =
            queued.framesBeforeStop == 0
            ? "before any frame" : "after \(queued.framesBeforeStop) frame\(queued.framesBeforeStop == 1 ? "" : "s")"
        items.append(
            CheckItem(
                "stop-queued", .pass,
                "stopped right after STREAMON (\(before)), its buffers queued, and closed without an error"))
        guard let reopened = lifecycle.reopened else {
            return items + [CheckItem("reopen", .skip, "not run: interrupted")]
        }
        if let problem = reopened.problem {
            items.append(CheckItem("reopen", .fail, "closed and opened again, it did not stream: \(problem)"))
        } else {
            let first = reopened.timeToFirstFrame.map {
                String(format: ": first frame %.1f ms after STREAMON", milliseconds($0))
            }
            // Its buffers could be requested: the stop before gave every one back.
            items.append(
                CheckItem(
                    "reopen", .pass,
                    "closed and opened again, it streams" + (first ?? "") + " (so that stop gave every buffer back)"))
        }
        return items
    }

    /// How many frames were decoded in full: nil unless the format is compressed. A frame the
    /// session rejected as damaged counts as neither decoded nor structure-only.
    private var decodedCount: Int? {
        guard let format = negotiated?.format, format.pixelFormat == .mjpeg || format.pixelFormat == .jpeg else {
            return nil
        }
        return records.filter(\.decoded).count
    }

    /// The exit status: the blocking error's class, 130 when interrupted, 1 when a check failed.
    func exitStatus(_ checks: [CheckItem]) -> ExitStatus {
        // Ctrl-C wins: the user stopped the check, whatever it had found so far.
        if case .interrupted = outcome { return .interrupted }
        if let error = blockingError { return ExitStatus(error) }
        if case .outputFailed = outcome { return .cannotCreate }
        return checks.contains { $0.status == .fail } ? .failure : .ok
    }

    /// The report for `--json`, the text rendering and JUnit.
    func report() -> CheckReport {
        let analysis = CheckAnalysis(records, nominalInterval: negotiated?.frameInterval?.seconds)
        let checks = self.checks(analysis)
        let status = exitStatus(checks)
        let result: String
        switch status {
        case .ok: result = "pass"
        case .failure: result = "fail"
        case .interrupted: result = "interrupted"
        default: result = "error"
        }
        let problem: CheckReport.ProblemReport?
        if case .interrupted = outcome {
            problem = CheckReport.ProblemReport(reason: "interrupted", fix: Nullable(nil))
        } else if let error = blockingError {
            problem = CheckReport.ProblemReport(
                reason: CommandLineTerms.translate(error.reason),
                fix: Nullable(error.fix.map(CommandLineTerms.translate)))
        } else if case .outputFailed(let message) = outcome {
            problem = CheckReport.ProblemReport(reason: message, fix: Nullable(nil))
        } else {
            problem = nil
        }
        return CheckReport(
            arcaptureVersion: Arcapture.version, device: path, result: result, exitStatus: status.rawValue,
            error: Nullable(problem), authorization: DeviceReport.AuthorizationReport(authorization),
            deviceInfo: Nullable(
                device?.capability.map { capability in
                    CheckReport.DeviceInfo(
                        driver: capability.driver, card: capability.card, busInfo: capability.busInfo,
                        driverVersion: capability.versionString, capabilities: capability.nodeCapabilities.names,
                        stablePaths: device?.stablePaths ?? [])
                }),
            location: locationName,
            format: Nullable(negotiated.map(formatSection)),
            frames: CheckReport.FramesSection(
                requested: options.frames, received: analysis.received, valid: analysis.valid,
                invalid: analysis.invalid, dropped: analysis.dropped, firstSequence: Nullable(analysis.firstSequence),
                lastSequence: Nullable(analysis.lastSequence),
                bytesPerFrame: Nullable(records.first(where: { $0.problem == nil })?.bytesUsed),
                decoded: Nullable(decodedCount), structureOnly: records.filter(\.structureOnly).count,
                problems: records.filter { $0.problem != nil }.prefix(20).map {
                    CheckReport.FrameProblem(sequence: $0.sequence, problem: $0.problem ?? "")
                }),
            lifecycle: Nullable(lifecycle.map(lifecycleSection)),
            modes: Nullable(modes.map(Self.modesSection)),
            picture: CheckReport.PictureSection(
                framesRead: analysis.pictureFrames, lumaMean: Nullable(rounded(analysis.lumaMean)),
                lumaSpread: Nullable(rounded(analysis.lumaSpread)), blackFrames: analysis.blackFrames,
                flatFrames: analysis.flatFrames, repeatedFrames: analysis.repeatedFrames),
            timing: CheckReport.TimingSection(
                timeToFirstFrameMs: Nullable(timeToFirstFrame.map(milliseconds)),
                startToFirstFrameMs: Nullable(startToFirstFrame.map(milliseconds)),
                spanS: Nullable(rounded(analysis.spanSeconds)), fpsMeasured: Nullable(rounded(analysis.measuredFPS)),
                fpsSensor: Nullable(rounded(analysis.sensorFPS)),
                intervalMeanMs: Nullable(rounded(analysis.intervalMeanMilliseconds)),
                jitterMs: Nullable(rounded(analysis.jitterMilliseconds)),
                maxDeviationMs: Nullable(rounded(analysis.maxDeviationMilliseconds)), monotonic: analysis.monotonic),
            checks: checks,
            durationS: rounded(seconds(duration)) ?? 0)
    }

    private func lifecycleSection(_ lifecycle: CheckLifecycle) -> CheckReport.LifecycleSection {
        func start(_ start: CheckLifecycle.Start) -> CheckReport.LifecycleSection.Start {
            CheckReport.LifecycleSection.Start(
                timeToFirstFrameMs: Nullable(start.timeToFirstFrame.map(milliseconds)),
                framesBeforeStop: start.framesBeforeStop, problem: Nullable(start.problem))
        }
        return CheckReport.LifecycleSection(
            cyclesRequested: lifecycle.requested, cycles: lifecycle.cycles.map(start),
            stopWithBuffersQueued: Nullable(lifecycle.stopWithBuffersQueued.map(start)),
            reopened: Nullable(lifecycle.reopened.map(start)))
    }

    private static func modesSection(_ modes: CheckModes) -> CheckReport.ModesSection {
        let modeReports = modes.advertised.map { mode -> CheckReport.ModesSection.Mode in
            let trial = modes.trials.first { $0.mode == mode }
            let problem = trial?.problem
            return CheckReport.ModesSection.Mode(
                pixelFormat: mode.pixelFormat.description, width: mode.size.width, height: mode.size.height,
                fpsAdvertised: Nullable(rounded(mode.framesPerSecond)),
                result: trial == nil ? "not_tried" : problem == nil ? "pass" : "fail",
                fpsApplied: Nullable(rounded(trial?.negotiated?.frameInterval?.framesPerSecond)),
                frames: trial?.framesReceived ?? 0, invalid: trial?.invalidFrames ?? 0,
                timeToFirstFrameMs: Nullable(trial?.timeToFirstFrame.map(milliseconds)),
                fpsMeasured: Nullable(rounded(trial?.measuredFPS)), problem: Nullable(problem))
        }
        return CheckReport.ModesSection(
            advertised: modes.advertised.count, tried: modes.trials.count, maxModes: modes.limit,
            framesPerMode: CheckModes.framesPerMode, modes: modeReports)
    }

    private func formatSection(_ negotiated: NegotiatedFormat) -> CheckReport.FormatSection {
        let format = negotiated.format
        return CheckReport.FormatSection(
            pixelFormat: format.pixelFormat.description, width: format.width, height: format.height,
            bytesPerLine: format.bytesPerLine, sizeImage: format.sizeImage,
            fpsRequested: Nullable(negotiated.request.framesPerSecond),
            fpsApplied: Nullable(rounded(negotiated.frameInterval?.framesPerSecond)), buffers: negotiated.bufferCount,
            libv4l2: negotiated.usesLibV4L2, chosenAutomatically: negotiated.request.pixelFormat == nil,
            explanation: negotiated.choice.explanation, adjustments: negotiated.adjustments)
    }
}

/// A duration in milliseconds, to three decimals.
func milliseconds(_ duration: Duration) -> Double {
    (seconds(duration) * 1_000_000).rounded() / 1000
}

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double { duration.seconds }
