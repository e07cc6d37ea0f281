import CaptureKit
import Foundation
import FoundationXML
import Testing

@testable import ArcaptureCLI
@testable import ArcaptureCore

@Suite("Check verdicts, exit statuses and reports")
struct CheckEvaluationTests {
    static let negotiated = NegotiatedFormat(
        request: FormatRequest(),
        choice: FormatChoice(
            pixelFormat: .yuyv, size: FrameSize(width: 640, height: 480),
            frameInterval: FrameInterval(numerator: 1, denominator: 25),
            explanation: ["chose YUYV 640x480 at 25 fps", "size 640x480: offered exactly"]),
        format: V4L2Format(pixelFormat: .yuyv, width: 640, height: 480, bytesPerLine: 1280, sizeImage: 614_400),
        frameInterval: FrameInterval(numerator: 1, denominator: 25), bufferCount: 4, usesLibV4L2: false, adjustments: []
    )

    static func evaluation(
        authorization: Authorization = Authorization(path: "/dev/video0", status: .authorized, problem: nil),
        outcome: CheckRecorder.Outcome? = .completed, frames: Int = 10, interval: Double = 0.04,
        drops: [Int: UInt32] = [:], lifecycle: CheckLifecycle? = lifecycle,
        luma: (Int) -> LumaStatistics? = { _ in scene },
        repeats: (Int) -> Bool = { _ in false }
    ) throws -> CheckEvaluation {
        var evaluation = CheckEvaluation(
            options: try CheckOptions(ArgumentParser.parse(["--frames", "\(frames)"], spec: CheckCommand.spec)),
            path: "/dev/video0", authorization: authorization, device: nil, locationName: "none")
        evaluation.outcome = outcome
        if authorization.status == .authorized {
            evaluation.negotiated = negotiated
            evaluation.lifecycle = lifecycle
            var sequence: UInt32 = 0
            evaluation.records = (0..<frames).map { index in
                let dropped = drops[index] ?? 0
                sequence += dropped
                defer { sequence += 1 }
                return FrameRecord(
                    sequence: sequence, droppedBefore: dropped,
                    timestampNanoseconds: Int64((Double(sequence) * interval) * 1e9), bytesUsed: 614_400, problem: nil,
                    luma: luma(index), repeatsPrevious: index > 0 && repeats(index))
            }
        }
        return evaluation
    }

    /// Three restarts, a stop with buffers queued and a reopen, each streaming.
    static let lifecycle = CheckLifecycle(
        requested: 3,
        cycles: [40, 41, 42].map { CheckLifecycle.Start(timeToFirstFrame: .milliseconds($0), framesBeforeStop: 1) },
        stopWithBuffersQueued: CheckLifecycle.Start(timeToFirstFrame: nil, framesBeforeStop: 0),
        reopened: CheckLifecycle.Start(timeToFirstFrame: .milliseconds(43), framesBeforeStop: 1))

    /// A picture with something in it: a checkerboard of luma 60 and 160 (mean 110, spread 50).
    static let scene = LumaStatistics(width: 8, height: 8) { x, y in (x + y) % 2 == 0 ? 60 : 160 }
    /// A capped lens: luma 10 with a little noise.
    static let capped = LumaStatistics(width: 8, height: 8) { x, y in (x + y) % 2 == 0 ? 7 : 13 }
    /// A grey card: luma 128 everywhere.
    static let grey = LumaStatistics(width: 8, height: 8) { _, _ in 128 }

    @Test("every check passes on a clean stream, and the status is 0")
    func clean() throws {
        let report = try Self.evaluation().report()
        #expect(report.result == "pass")
        #expect(report.exitStatus == 0)
        #expect(
            report.checks.filter { $0.status == .pass }.map(\.name) == [
                "access", "format", "stream", "frame-rate", "drops", "timestamps", "frames", "picture", "restarts",
                "stop-queued", "reopen",
            ])
        #expect(
            report.checks.first { $0.name == "picture" }?.detail
                == "not frozen, black or flat: luma mean 110.0, spread 50.0 of 255 over 10 frames")
        #expect(report.picture.framesRead == 10 && report.picture.lumaMean.value == 110)
    }

    @Test("a frozen, a black and a flat picture each fail the picture check with status 1, saying which")
    func pictureFailures() throws {
        let frozen = try Self.evaluation(repeats: { _ in true }).report()
        #expect(frozen.exitStatus == 1)
        #expect(frozen.picture.repeatedFrames == 9)
        #expect(
            frozen.checks.first { $0.name == "picture" }?.detail.hasPrefix(
                "frozen: all 10 frames are one picture, byte for byte") == true,
            "\(frozen.checks)")
        let black = try Self.evaluation(luma: { _ in Self.capped }).report()
        #expect(black.exitStatus == 1)
        #expect(black.picture.blackFrames == 10)
        #expect(
            black.checks.first { $0.name == "picture" }?.detail.hasPrefix(
                "black: luma mean 10.0, spread 3.0 of 255 in every frame read") == true,
            "\(black.checks)")
        let flat = try Self.evaluation(luma: { _ in Self.grey }).report()
        #expect(flat.exitStatus == 1)
        #expect(
            flat.checks.first { $0.name == "picture" }?.detail.hasPrefix(
                "one flat colour: luma mean 128.0, spread 0.0 of 255") == true,
            "\(flat.checks)")
        #expect(flat.checks.filter { $0.status == .fail }.map(\.name) == ["picture"])
    }

    @Test("a picture dark for a moment, or a frame repeated now and then, passes with a note")
    func picturePartial() throws {
        let report = try Self.evaluation(
            luma: { $0 < 3 ? Self.capped : Self.scene }, repeats: { $0 == 5 || $0 == 6 }
        ).report()
        #expect(report.exitStatus == 0, "\(report.checks)")
        let picture = try #require(report.checks.first { $0.name == "picture" })
        #expect(picture.status == .pass)
        #expect(
            picture.notes == [
                "2 frames repeated the one before, byte for byte", "3 black and 0 flat of 10 frames read",
            ], "\(picture.notes)")
        // Unread brightness (a format whose luma is not read): only frozen is judged.
        let unread = try Self.evaluation(luma: { _ in nil }).report()
        #expect(unread.checks.first { $0.name == "picture" }?.status == .skip)
        #expect(
            unread.checks.first { $0.name == "picture" }?.detail.hasPrefix("not frozen; brightness not read") == true)
        #expect(try Self.evaluation(luma: { _ in nil }, repeats: { _ in true }).report().exitStatus == 1)
    }

    @Test("a slow stream fails the rate check with status 1")
    func slow() throws {
        let report = try Self.evaluation(interval: 0.05).report()
        #expect(report.exitStatus == 1)
        #expect(report.checks.first { $0.name == "frame-rate" }?.status == .fail)
        #expect(
            report.checks.first { $0.name == "frame-rate" }?.detail
                == "20 fps measured, 25 fps applied (at least 22.5 required)")
    }

    @Test("drops fail the drops check")
    func drops() throws {
        let report = try Self.evaluation(drops: [4: 2]).report()
        #expect(report.exitStatus == 1)
        #expect(report.frames.dropped == 2)
        #expect(report.checks.first { $0.name == "drops" }?.status == .fail)
    }

    @Test(
        "each failure class has its status",
        arguments: [
            (
                CaptureError.permissionDenied(
                    PermissionDiagnosis(
                        path: "/dev/video0", errno: .permissionDenied, ownerID: 0, ownerName: "root", groupID: 44,
                        groupName: "video", mode: 0o660, userID: 1000, userName: "a", processHasGroup: false,
                        userListedInGroup: false)), AuthorizationStatus.denied, Int32(77)
            ),
            (
                CaptureError.deviceBusy(
                    path: "/dev/video0", holders: [ProcessHolder(pid: 42, command: "ustreamer")],
                    uninspectedProcesses: 0), .restricted, 75
            ),
            (CaptureError.deviceNotFound(path: "/dev/video0"), .notDetermined, 69),
            (CaptureError.multiplanarUnsupported(path: "/dev/video0"), .restricted, 69),
        ])
    func accessFailures(error: CaptureError, status: AuthorizationStatus, exit: Int32) throws {
        let report = try Self.evaluation(
            authorization: Authorization(path: "/dev/video0", status: status, problem: error)
        ).report()
        #expect(report.exitStatus == exit)
        #expect(report.result == "error")
        #expect(report.error.value?.reason == error.reason)
        #expect(report.checks.first?.status == .fail)
        #expect(report.checks.dropFirst().allSatisfy { $0.status == .skip })
    }

    @Test(
        "stream failures have their statuses",
        arguments: [
            (CheckRecorder.Outcome.failed(.disconnected(path: "/dev/video0")), Int32(69)),
            (.failed(.timeout(path: "/dev/video0", seconds: 5, framesReceived: 3)), 74),
            (
                .failed(
                    .streamingFailed(path: "/dev/video0", SystemCallError(call: "VIDIOC_STREAMON", errno: .ioError))),
                74
            ),
            (.interrupted, 130),
            (.outputFailed("cannot write 'x'"), 73),
        ])
    func streamFailures(outcome: CheckRecorder.Outcome, exit: Int32) throws {
        let report = try Self.evaluation(outcome: outcome).report()
        #expect(report.exitStatus == exit)
        #expect(report.checks.first { $0.name == "stream" }?.status == .fail)
    }

    @Test("a restart, a stop with buffers queued or a reopen that fails fails its check (1); the rest are skipped")
    func lifecycleFailures() throws {
        let failure = CheckLifecycle.Start(error: .disconnected(path: "/dev/video0"))
        let reason = try #require(failure.problem)
        var second = Self.lifecycle
        second.cycles = [Self.lifecycle.cycles[0], failure]
        second.stopWithBuffersQueued = nil
        second.reopened = nil
        let restart = try Self.evaluation(lifecycle: second).report()
        #expect(restart.exitStatus == 69, "the error's class, as at the first start")
        #expect(restart.error.value?.reason == reason)
        let names = ["restarts", "stop-queued", "reopen"]
        let items = names.compactMap { name in restart.checks.first { $0.name == name } }
        #expect(items.map(\.status) == [.fail, .skip, .skip])
        #expect(
            items.first?.detail
                == "1 of 3 starts streamed, each on a fresh open: first frame 40.0 ms after STREAMON; start 2 failed: \(reason)"
        )
        var queued = Self.lifecycle
        queued.stopWithBuffersQueued = failure
        queued.reopened = nil
        let stop = try Self.evaluation(lifecycle: queued).report()
        #expect(names.compactMap { name in stop.checks.first { $0.name == name }?.status } == [.pass, .fail, .skip])
        var reopen = Self.lifecycle
        reopen.reopened = failure
        let reopened = try Self.evaluation(lifecycle: reopen).report()
        #expect(
            names.compactMap { name in reopened.checks.first { $0.name == name }?.status } == [.pass, .pass, .fail])
        #expect(reopened.lifecycle.value?.reopened.value?.problem.value == reason)
        #expect(reopened.exitStatus == 69 && reopened.result == "error")
        // --cycles 0: the three are skipped, saying why; a stream that did not complete: the same.
        let none = try Self.evaluation(lifecycle: CheckLifecycle(requested: 0)).report()
        #expect(none.exitStatus == 0)
        #expect(none.checks.filter { names.contains($0.name) }.allSatisfy { $0.detail == "not run: --cycles 0" })
        let stalled = try Self.evaluation(
            outcome: .failed(.timeout(path: "/dev/video0", seconds: 5, framesReceived: 3)), lifecycle: nil
        ).report()
        #expect(stalled.checks.filter { names.contains($0.name) }.map(\.status) == [.skip, .skip, .skip])
        #expect(stalled.lifecycle.value == nil)
    }

    @Test("the text report lists each check and the result")
    func text() throws {
        let text = CheckReportText.render(try Self.evaluation().report())
        #expect(text.hasPrefix("arcapture check: /dev/video0\n"))
        #expect(
            text.contains(
                "  PASS  format      YUYV 640x480 at 25 fps, 614400 bytes per frame, 4 buffers (raw ioctls)\n"))
        #expect(text.contains("result: PASS (11 passed, 0 failed) in "))
        #expect(
            text.contains(
                "  PASS  restarts    3 of 3 starts streamed, each on a fresh open: first frame 40.0, 41.0, 42.0 ms after STREAMON\n"
            ))
    }

    @Test("the JUnit report is well-formed XML with one test case per check")
    func junit() throws {
        let report = try Self.evaluation(drops: [3: 1]).report()
        let xml = JUnitReport.render(report, timestamp: Date(timeIntervalSince1970: 0))
        let document = try XMLDocument(xmlString: xml)
        let suite = try #require(document.rootElement()?.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "failures")?.stringValue == "1")
        #expect(suite.attribute(forName: "timestamp")?.stringValue == "1970-01-01T00:00:00Z")
        let failed = suite.elements(forName: "testcase").filter { !$0.elements(forName: "failure").isEmpty }
        #expect(failed.compactMap { $0.attribute(forName: "name")?.stringValue } == ["drops"])
        #expect(JUnitReport.escape("a<b & \"c\"\u{1}") == "a&lt;b &amp; &quot;c&quot;")
    }

    @Test("the JSON report names every documented field, with nulls rather than gaps")
    func json() throws {
        let text = JSONOutput.encode(
            try Self.evaluation(
                authorization: Authorization(
                    path: "/dev/video0", status: .notDetermined, problem: .deviceNotFound(path: "/dev/video0"))
            ).report())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        for key in [
            "schema", "arcapture_version", "device", "result", "exit_status", "error", "authorization", "device_info",
            "location", "format", "frames", "picture", "timing", "checks", "duration_s",
        ] {
            #expect(object.keys.contains(key), "missing \(key)")
        }
        #expect(object["format"] is NSNull)
        #expect(object["schema"] as? String == "arcapture.check/1")
    }
}
