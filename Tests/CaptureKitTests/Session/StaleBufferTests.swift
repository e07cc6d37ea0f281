import Foundation
@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@testable import ArcaptureCore
@_spi(Testing) @testable import CaptureKit
@testable import Positioning

/// v4l2loopback's leftovers: after `VIDIOC_REQBUFS` every buffer reads as sequence 0, the whole
/// buffer used, stamped at the request, and the first `VIDIOC_DQBUF` can return one of them. Taken
/// for a frame, its sequence 0 made the jump to the writer's position dozens of "dropped" frames.
@Suite("Buffers filled before STREAMON")
struct StaleBufferTests {
    static let coordinate = GeodeticCoordinate(latitude: 60.17, longitude: 24.94)

    static func start() async throws -> RunningSession {
        let coordinate = try #require(coordinate)
        return try await RunningSession.start(location: FixedLocationSource(coordinate)) { session in
            session.configuration.format = FormatRequest(
                pixelFormat: .yuyv, size: FrameSize(width: 640, height: 480), framesPerSecond: 30)
        }
    }

    @Test("a first buffer stamped before STREAMON is skipped and counted, and drops count from the first real frame")
    func staleFirstBuffer() async throws {
        let running = try await Self.start()
        let (session, recorder, device) = (running.session, running.recorder, running.device)
        let stale = Fixtures.yuyvFrame(seed: 9)
        #expect(device.emit(stale, sequence: 0, timestampNanoseconds: 1_000))
        #expect(device.emit(Fixtures.yuyvFrame(seed: 1), sequence: 40))
        #expect(device.emit(Fixtures.yuyvFrame(seed: 2), sequence: 41))
        let events = try await recorder.wait { $0.frames.count == 2 }
        await session.stop()
        #expect(events.frames.map(\.sequence) == [40, 41])
        #expect(events.frames.map(\.droppedBefore) == [0, 0])
        #expect(!events.frames.contains { $0.data == stale })
        #expect(session.statistics.staleBuffersSkipped == 1)
        #expect(session.statistics.framesDropped == 0)
    }

    @Test("an early timestamp is no leftover when it is copied from another clock, or comes after the first frame")
    func notStale() async throws {
        let running = try await Self.start()
        let (session, recorder, device) = (running.session, running.recorder, running.device)
        // A copied timestamp is the producer's clock, not the stream's: it says nothing.
        #expect(
            device.emit(Fixtures.yuyvFrame(seed: 1), sequence: 5, flags: .timestampCopy, timestampNanoseconds: 1_000))
        // Once a frame came, an early stamp is the driver's business, not a leftover.
        #expect(device.emit(Fixtures.yuyvFrame(seed: 2), sequence: 6, timestampNanoseconds: 2_000))
        let events = try await recorder.wait { $0.frames.count == 2 }
        await session.stop()
        #expect(events.frames.map(\.sequence) == [5, 6])
        #expect(session.statistics.staleBuffersSkipped == 0)
    }

    @Test("an MJPEG frame padded with zeros after its end marker is delivered without the padding")
    func paddingTrimmed() async throws {
        let coordinate = try #require(Self.coordinate)
        let running = try await RunningSession.start(location: FixedLocationSource(coordinate)) { session in
            session.configuration.format = FormatRequest(
                pixelFormat: .mjpeg, size: FrameSize(width: 640, height: 480), framesPerSecond: 30)
        }
        let (session, recorder, device) = (running.session, running.recorder, running.device)
        let jpeg = try Fixtures.webcamFrame()
        #expect(device.emit(jpeg + [UInt8](repeating: 0, count: 4096), sequence: 1))
        let events = try await recorder.wait { $0.frames.count == 1 }
        await session.stop()
        #expect(events.frames.first?.data == jpeg)
    }
}
