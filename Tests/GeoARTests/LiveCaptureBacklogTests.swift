import CaptureKit
import Foundation
@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@testable import GeoAR
@testable import Positioning

/// What a live capture does with frames that come while it is still writing one: it keeps at most
/// ``LiveCaptureSettings/maxWaitingFrames``, dropping the oldest. The writer is held on its own
/// queue while the scripted camera sends ten frames, so what is asserted is counted, not timed.
@Suite("Live capture's backlog")
struct LiveCaptureBacklogTests {
    @Test(
        "while the writer is busy, the newest frames wait and the older are dropped and counted",
        arguments: [(waiting: 1, written: [0, 10]), (waiting: 4, written: [0, 7, 8, 9, 10])])
    func newestWait(waiting: Int, written: [Int]) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backlog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let logPath = directory.appendingPathComponent("frames.jsonl").path
        let factory = ScriptedDeviceFactory()
        let session = factory.makeSession()
        let capture = LiveCapture(
            settings: LiveCaptureSettings(devices: ["/dev/video-scripted"], maxWaitingFrames: waiting),
            session: session, writer: try CaptureOutputWriter(destination: .discard, quality: 80),
            log: try JSONLinesLog(path: logPath))
        capture.attach(to: session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        let frame = [UInt8](repeating: 128, count: 640 * 480 * 2)
        func emit(_ sequence: UInt32) -> Bool {
            waitUntil {
                factory.latest?.emit(frame, sequence: sequence, stampedNow: true)
                    == true
            }
        }
        #expect(emit(0))
        #expect(waitUntil { capture.runningCounts.written == 1 }, "the first frame is written")
        // The drain that wrote it has ended (else it would take the next frames before the hold).
        capture.writerQueue.sync {}
        // Hold the writer, as a slow overlay or encoder would, while ten more frames come.
        let release = DispatchSemaphore(value: 0)
        capture.writerQueue.async { release.wait() }
        for sequence in 1...10 { #expect(emit(UInt32(sequence))) }
        let dropped = 10 - waiting
        #expect(
            waitUntil { capture.runningCounts.droppedBehind == dropped },
            "\(capture.runningCounts.droppedBehind) dropped, not \(dropped)")
        release.signal()
        #expect(waitUntil { capture.runningCounts.written == written.count })
        await session.stop()
        await capture.writerIdle()
        let counts = capture.counts
        #expect(counts.droppedBehind == dropped)
        #expect(counts.dropped == dropped, "none skipped by the driver")
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        let sequences = text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["sequence"] as? Int
        }
        #expect(sequences == written, "the frames written are the first and the newest")
    }
}
