import ScriptedCamera
import TestSupport
import Testing

@testable import ArcaptureCore
@_spi(Testing) @testable import CaptureKit
@testable import Positioning

/// The canvas: a session with no camera behind it (what a map view draws on), run by the same
/// machinery as a camera's.
@Suite("A canvas session: frames with no camera", .timeLimit(.minutes(10)))
struct CanvasSessionTests {
    @Test(
        "a canvas streams blank YUYV frames of its size, in sequence, once a location source is assigned, and stops as a camera does"
    )
    func streams() async throws {
        let session = try #require(CaptureSession(canvas: FrameSize(width: 64, height: 48), framesPerSecond: 50))
        #expect(session.configuration.devicePath == "canvas")
        let recorder = SessionRecorder(session)
        session.startRunning()
        try await recorder.waitForPhase { $0 == .waitingForLocationSource }
        #expect(recorder.events.frames.isEmpty, "no frame before a location source, as for a camera")
        session.locationSource = NoPositionSource()
        let events = try await recorder.wait { $0.frames.count >= 3 }
        await session.stop()
        let frames = Array(events.frames.prefix(3))
        for frame in frames {
            #expect(frame.format.pixelFormat == .yuyv)
            #expect(frame.format.size == FrameSize(width: 64, height: 48))
            #expect(frame.data.count == 64 * 48 * 2)
            #expect(frame.devicePath == "canvas")
            // Black in limited range: every luma 16, every chroma 128.
            #expect(stride(from: 0, to: frame.data.count, by: 2).allSatisfy { frame.data[$0] == 16 })
            #expect(stride(from: 1, to: frame.data.count, by: 2).allSatisfy { frame.data[$0] == 128 })
        }
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.sequence < $1.sequence }, "\(frames.map(\.sequence))")
        #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.timestampNanoseconds < $1.timestampNanoseconds })
        #expect(recorder.events.phases.last == .idle, "\(recorder.events.phases)")
        #expect(session.statistics.framesDelivered >= 3)
    }

    @Test("a canvas refuses a size or rate it cannot have, saying why")
    func refuses() {
        let cases: [(FrameSize, Double, String?)] = [
            (FrameSize(width: 640, height: 480), 10, nil),
            (FrameSize(width: 641, height: 480), 10, "its width even"),
            (FrameSize(width: 0, height: 480), 10, "2 to 16384 pixels"),
            (FrameSize(width: 640, height: 20000), 10, "2 to 16384 pixels"),
            (FrameSize(width: 640, height: 480), 0, "0.01 to 240 frames a second"),
            (FrameSize(width: 640, height: 480), .nan, "0.01 to 240 frames a second"),
            (FrameSize(width: 640, height: 480), 1000, "0.01 to 240 frames a second"),
        ]
        for (size, rate, problem) in cases {
            let found = CaptureSession.canvasProblem(size: size, framesPerSecond: rate)
            if let problem {
                #expect(found?.contains(problem) == true, "\(size) at \(rate): \(found ?? "accepted")")
                #expect(CaptureSession(canvas: size, framesPerSecond: rate) == nil)
            } else {
                #expect(found == nil)
                #expect(CaptureSession(canvas: size, framesPerSecond: rate) != nil)
            }
        }
    }
}
