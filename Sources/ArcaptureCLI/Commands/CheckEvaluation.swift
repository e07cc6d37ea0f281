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

    /// The failure that stopped the check before its measurements, if any.
    var blockingError: CaptureError? {
        if let problem = authorization.problem { return problem }
        if case .failed(let error) = outcome { return error }
        return nil
    }

    /// The verdicts, in the order they are reported.
    func checks(_ analysis: CheckAnalysis) -> [CheckItem] {
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
        return items
    }

    private func skipped(after name: String) -> [CheckItem] {
        let order = ["access", "device", "format", "stream", "frame-rate", "drops", "timestamps", "frames"]
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
