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
        drops: [Int: UInt32] = [:]
    ) throws -> CheckEvaluation {
        var evaluation = CheckEvaluation(
            options: try CheckOptions(ArgumentParser.parse(["--frames", "\(frames)"], spec: CheckCommand.spec)),
            path: "/dev/video0", authorization: authorization, device: nil, locationName: "none")
        evaluation.outcome = outcome
        if authorization.status == .authorized {
            evaluation.negotiated = negotiated
            var sequence: UInt32 = 0
            evaluation.records = (0..<frames).map { index in
                let dropped = drops[index] ?? 0
                sequence += dropped
                defer { sequence += 1 }
                return FrameRecord(
                    sequence: sequence, droppedBefore: dropped,
                    timestampNanoseconds: Int64((Double(sequence) * interval) * 1e9), bytesUsed: 614_400, problem: nil)
            }
        }
        return evaluation
    }

    @Test("every check passes on a clean stream, and the status is 0")
    func clean() throws {
        let report = try Self.evaluation().report()
        #expect(report.result == "pass")
        #expect(report.exitStatus == 0)
        #expect(
            report.checks.filter { $0.status == .pass }.map(\.name) == [
                "access", "format", "stream", "frame-rate", "drops", "timestamps", "frames",
            ])
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

    @Test("the text report lists each check and the result")
    func text() throws {
        let text = CheckReportText.render(try Self.evaluation().report())
        #expect(text.hasPrefix("arcapture check: /dev/video0\n"))
        #expect(
            text.contains(
                "  PASS  format      YUYV 640x480 at 25 fps, 614400 bytes per frame, 4 buffers (raw ioctls)\n"))
        #expect(text.contains("result: PASS (7 passed, 0 failed) in "))
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
            "location", "format", "frames", "timing", "checks", "duration_s",
        ] {
            #expect(object.keys.contains(key), "missing \(key)")
        }
        #expect(object["format"] is NSNull)
        #expect(object["schema"] as? String == "arcapture.check/1")
    }
}
