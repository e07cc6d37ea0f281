import CaptureKit
import Dispatch
import Foundation
import Testing

@testable import ArcaptureCLI
@testable import ArcaptureCore

/// `check` decodes MJPEG off the capture path. What the VM suite could only show on a fast host
/// (a 30-fps camera and no frame lost to decoding) is shown here at any speed: with the decoder
/// held still, every frame is still recorded at once, the backlog's worth are decoded when it
/// moves again, and the rest are counted on their structure alone, in the report and its JSON.
@Suite("check's frame recorder", .timeLimit(.minutes(10)))
struct CheckRecorderTests {
    static func mjpegFrame(_ sequence: UInt32) -> VideoFrame {
        // Structure is the session's business; the recorder hands the bytes to its validation.
        VideoFrame(
            data: [0xFF, 0xD8, UInt8(sequence & 0xFF), 0xFF, 0xD9],
            format: V4L2Format(pixelFormat: .mjpeg, width: 1280, height: 720), sequence: sequence, droppedBefore: 0,
            timestampNanoseconds: Int64(sequence) * 33_333_333, captureDate: Date(timeIntervalSince1970: 0), flags: [])
    }

    @Test("a stalled decoder never holds up the frames: the backlog is decoded, the rest counted on structure")
    func stalledDecoder() async throws {
        let release = DispatchSemaphore(value: 0)
        let started = Locked(0)
        let recorder = CheckRecorder(target: 60, writer: nil) { bytes, _ in
            started.withLock { $0 += 1 }
            release.wait()  // held until every frame has been recorded
            return bytes[2] == 7 ? "JPEG is 640x480, format says 1280x720" : nil
        }
        // Sixty frames from this thread, as the session queue delivers them: were decoding on
        // this path, the first call would block here for good (the suite's time limit ends it).
        for sequence in UInt32(0)..<60 { recorder.frame(Self.mjpegFrame(sequence)) }
        #expect(recorder.peekOutcome == .completed)
        let held = recorder.snapshot.records
        #expect(held.count == 60)
        #expect(held.filter(\.decoded).count == CheckRecorder.decodeBacklog)
        #expect(held.filter(\.structureOnly).count == 60 - CheckRecorder.decodeBacklog)
        for _ in 0..<CheckRecorder.decodeBacklog { release.signal() }
        await recorder.validationFinished()
        #expect(started.withLock { $0 } == CheckRecorder.decodeBacklog)

        var evaluation = CheckEvaluation(
            options: try CheckOptions(ArgumentParser.parse(["--frames", "60"], spec: CheckCommand.spec)),
            path: "/dev/video0",
            authorization: Authorization(path: "/dev/video0", status: .authorized, problem: nil), device: nil,
            locationName: "none")
        evaluation.outcome = .completed
        evaluation.negotiated = NegotiatedFormat(
            request: FormatRequest(),
            choice: FormatChoice(
                pixelFormat: .mjpeg, size: FrameSize(width: 1280, height: 720),
                frameInterval: FrameInterval(numerator: 1, denominator: 30), explanation: []),
            format: V4L2Format(pixelFormat: .mjpeg, width: 1280, height: 720),
            frameInterval: FrameInterval(numerator: 1, denominator: 30), bufferCount: 2, usesLibV4L2: false,
            adjustments: [])
        evaluation.records = recorder.snapshot.records
        let report = evaluation.report()
        #expect(report.frames.decoded.value == CheckRecorder.decodeBacklog)
        #expect(report.frames.structureOnly == 60 - CheckRecorder.decodeBacklog)
        #expect(report.frames.received == 60 && report.frames.dropped == 0)
        let frames = try #require(report.checks.first { $0.name == "frames" })
        #expect(
            frames.detail.hasPrefix(
                "60/60 valid (4 decoded to 1280x720; 56 checked for structure only: the decoder fell behind the camera)"
            ),
            "\(frames.detail)")
    }

    @Test(
        "a frame the decoder rejects is invalid; one the session rejected counts as neither decoded nor structure-only")
    func verdicts() async throws {
        let recorder = CheckRecorder(target: 3, writer: nil) { bytes, _ in
            bytes[2] == 1 ? "JPEG is 640x480, format says 1280x720" : nil
        }
        recorder.frame(Self.mjpegFrame(0))
        recorder.frame(Self.mjpegFrame(1))
        recorder.rejected(
            FrameRejection(
                sequence: 2, droppedBefore: 0, bytesUsed: 4, timestampNanoseconds: 66_666_666,
                reason: .malformedJPEG(.missingEndMarker)))
        await recorder.validationFinished()
        let records = recorder.snapshot.records
        #expect(records.map(\.decoded) == [true, true, false])
        #expect(records.map(\.structureOnly) == [false, false, false])
        #expect(records[0].problem == nil)
        #expect(records[1].problem == "JPEG is 640x480, format says 1280x720")
        #expect(records[2].problem == "truncated JPEG (no end-of-image marker)")
    }
}
