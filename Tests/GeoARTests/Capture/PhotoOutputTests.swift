import Foundation
@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@testable import ArcaptureCore
@_spi(Testing) @testable import CaptureKit
@testable import GeoAR
@testable import JPEGKit

// The time limit guards against a hang, so only a hang reaches it: a 1-minute limit failed under
// AddressSanitizer on a loaded machine (a test's ffmpeg waiting its turn among the suite's programs).
@Suite("Photo output", .timeLimit(.minutes(10)))
struct PhotoOutputTests {
    /// Waits (without sleeping) until the output has a request, so a frame emitted next answers it.
    static func waitUntilPending(_ output: PhotoOutput) async {
        while output.pendingRequests == 0 { await Task.yield() }
    }

    @Test("an MJPEG frame passes through, completed with the standard Huffman tables, and decodes the same")
    func mjpegPassThrough() async throws {
        let output = PhotoOutput()
        let running = try await RunningSession.start { session in
            session.configuration.format = FormatRequest(pixelFormat: .mjpeg, size: FrameSize(width: 640, height: 480))
            session.addOutput(output)
        }
        let frame = try Fixtures.webcamFrame()
        let photo = Task { try await output.capturePhoto(quality: 50) }
        await Self.waitUntilPending(output)
        #expect(running.device.emit(frame, sequence: 7))
        let result = try await photo.value
        await running.session.stop()
        #expect(result.passedThrough)
        #expect(result.sequence == 7)
        #expect(
            JPEGStructure.headerSegments(of: frame)?.contains { $0.marker == 0xC4 } == false,
            "the camera's frame has no DHT")
        #expect(JPEGStructure.headerSegments(of: result.data)?.contains { $0.marker == 0xC4 } == true)
        #expect(result.data.count > frame.count)
        let original = try JPEGDecoder().decode(frame)
        let completed = try JPEGDecoder().decode(result.data)
        #expect(original.planes == completed.planes, "no re-encoding: the same pixels")
    }

    @Test("the completed still is a JPEG an independent decoder (ffmpeg) reads")
    func independentDecoder() async throws {
        let completed = JPEGStructure.insertingStandardHuffmanTables(into: try Fixtures.webcamFrame())
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arcapture-still-\(UUID().uuidString).jpg"
        ).path
        try Data(completed).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let probe = try await ProcessRunner.run(
            tool: "ffprobe",
            ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", path],
            install: "bash scripts/install-deps")
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,640,480")
        #expect(probe.stderr.isEmpty)
    }

    @Test("a raw frame is encoded, and a request pending when the session stops fails")
    func rawAndStopped() async throws {
        let output = PhotoOutput()
        let running = try await RunningSession.start { session in
            session.configuration.format = FormatRequest(pixelFormat: .yuyv, size: FrameSize(width: 640, height: 480))
            session.addOutput(output)
        }
        let photo = Task { try await output.capturePhoto(quality: 80) }
        await Self.waitUntilPending(output)
        #expect(running.device.emit(Fixtures.yuyvFrame(), sequence: 1))
        let result = try await photo.value
        #expect(!result.passedThrough)
        let decoded = try JPEGDecoder().decode(result.data)
        #expect((decoded.width, decoded.height, decoded.subsampling) == (640, 480, .s422))

        let pending = Task { try await output.capturePhoto() }
        await Self.waitUntilPending(output)
        await running.session.stop()
        await #expect(throws: PhotoCaptureError.sessionStopped(nil)) { _ = try await pending.value }
    }

    @Test("an output that is not attached says so")
    func notAttached() async {
        await #expect(throws: PhotoCaptureError.notAttached) { _ = try await PhotoOutput().capturePhoto() }
    }
}

@Suite("MJPEG pass-through validation")
struct PassThroughValidationTests {
    static func frame(_ bytes: [UInt8]) -> VideoFrame {
        VideoFrame(
            data: bytes, format: V4L2Format(pixelFormat: .mjpeg, width: 640, height: 480), sequence: 0,
            droppedBefore: 0,
            timestampNanoseconds: 0, captureDate: Date(timeIntervalSince1970: 0), flags: [])
    }

    @Test("a bit-flipped frame passes a structure check but not a decoding one")
    func bitFlipped() throws {
        var damaged = try Fixtures.webcamFrame()
        damaged[damaged.count / 2] = 0xFF  // a stray restart marker in the scan: bits flipped on the cable
        damaged[damaged.count / 2 + 1] = 0xD3
        let writer = try FrameJPEGWriter()
        #expect(try writer.jpeg(for: Self.frame(damaged), quality: 90, validation: .structure).passedThrough)
        #expect(throws: FrameConversionError.self) {
            try writer.jpeg(for: Self.frame(damaged), quality: 90, validation: .decode)
        }
        let whole = try writer.jpeg(for: Self.frame(try Fixtures.webcamFrame()), quality: 90, validation: .decode)
        #expect(whole.passedThrough)
    }

    @Test("a truncated frame and one of the wrong size are refused even by the structure check")
    func truncatedAndWrongSize() throws {
        let frame = try Fixtures.webcamFrame()
        let writer = try FrameJPEGWriter()
        #expect(throws: FrameConversionError.self) {
            try writer.jpeg(for: Self.frame(Array(frame.prefix(frame.count / 2))), quality: 90)
        }
        var wrongSize = Self.frame(frame)
        wrongSize.format = V4L2Format(pixelFormat: .mjpeg, width: 1280, height: 720)
        #expect(throws: FrameConversionError.self) { try writer.jpeg(for: wrongSize, quality: 90) }
    }
}
