import Foundation
@_spi(Testing) import ScriptedCamera
import TestSupport
import Testing

@testable import ArcaptureCore
@_spi(Testing) @testable import CaptureKit
@testable import JPEGKit
@testable import Positioning

/// The session over the scripted fake device: lifecycle, negotiation, frames and faults that vivid
/// cannot produce (MJPEG, controlled faults), plus the same rules the VM suite checks for real.
// The time limit guards against a hang, so only a hang reaches it: a 1-minute limit failed under
// AddressSanitizer on a loaded machine (a test's ffmpeg waiting its turn among the suite's programs).
@Suite("Capture session with a scripted device", .timeLimit(.minutes(10)))
struct CaptureSessionTests {
    @Test("streaming waits for a location source; removing it releases the device in order")
    func locationSourceGatesStreaming() async throws {
        let factory = ScriptedDeviceFactory()
        let session = factory.makeSession()
        let recorder = SessionRecorder(session)
        session.startRunning()
        try await recorder.waitForPhase { $0 == .waitingForLocationSource }
        #expect(factory.devices.isEmpty, "no device may be opened before a location source is assigned")

        session.locationSource = NoPositionSource()
        try await recorder.waitForPhase(\.isRunning)
        let device = try #require(factory.latest)
        #expect(device.isStreaming)

        session.locationSource = nil
        try await recorder.wait { $0.phases.last == .waitingForLocationSource }
        await session.stop()
        #expect(device.isClosed)
        let calls = device.calls
        let tail = Array(calls.suffix(7))
        #expect(tail == ["VIDIOC_STREAMOFF", "munmap", "munmap", "munmap", "munmap", "VIDIOC_REQBUFS 0", "close"])
        let phases = recorder.events.phases.map(\.description)
        #expect(
            phases == ["waiting-for-location-source", "starting", "running", "waiting-for-location-source", "idle"])
    }

    @Test("frames arrive with their bytes, sequence, drops and wall-clock time")
    func framesAndDrops() async throws {
        // The clocks around the stream: CLOCK_REALTIME read between two CLOCK_MONOTONIC readings.
        let (monotonicBefore, realtime, monotonicAfter) = (
            MonotonicClock.nanoseconds(), MonotonicClock.realtimeNanoseconds(), MonotonicClock.nanoseconds()
        )
        let coordinate = try #require(GeodeticCoordinate(latitude: 60.17, longitude: 24.94))
        let running = try await RunningSession.start(location: FixedLocationSource(coordinate)) { session in
            session.configuration.format = FormatRequest(
                pixelFormat: .yuyv, size: FrameSize(width: 640, height: 480), framesPerSecond: 30)
        }
        let (session, recorder, device) = (running.session, running.recorder, running.device)
        let first = Fixtures.yuyvFrame(seed: 1)
        let second = Fixtures.yuyvFrame(seed: 2)
        #expect(device.emit(first, sequence: 10))
        #expect(device.emit(second, sequence: 13))  // 11 and 12 were dropped
        let events = try await recorder.wait { $0.frames.count == 2 }
        let monotonicEnd = MonotonicClock.nanoseconds()
        await session.stop()
        #expect(events.frames[0].data == first)
        #expect(events.frames[1].data == second)
        #expect(events.frames.map(\.sequence) == [10, 13])
        #expect(events.frames.map(\.droppedBefore) == [0, 2])
        #expect(session.statistics.framesDropped == 2)
        #expect(session.statistics.framesDelivered == 2)
        let spacing = events.frames[1].captureDate.timeIntervalSince(events.frames[0].captureDate)
        #expect(abs(spacing - 0.1) < 0.001, "wall-clock times keep the driver's spacing (3 frame times)")
        // The first frame's CLOCK_MONOTONIC timestamp is mapped by CLOCK_REALTIME minus
        // CLOCK_MONOTONIC, which the session read while the stream started: between this test's
        // readings above and the frames' arrival. The true offset lies within the test's pair; the
        // session's, within as much again as the time from those readings to the frames (at any
        // speed: a slow machine widens the bound with the time it took).
        let window = monotonicEnd - monotonicAfter
        let low = realtime - monotonicAfter - window
        let high = realtime - monotonicBefore + window
        let mapped = Int64((events.frames[0].captureDate.timeIntervalSince1970 * 1e9).rounded())
        let offset = mapped - events.frames[0].timestampNanoseconds
        // A Date holds about 0.2 µs at today's epoch; a microsecond's slack covers its rounding.
        #expect(offset >= low - 1000 && offset <= high + 1000, "offset \(offset) ns outside \(low)...\(high)")
    }

    @Test("sequence numbers that wrap past 2^32 count no drop")
    func sequenceWrap() async throws {
        let running = try await RunningSession.start()
        let (session, recorder, device) = (running.session, running.recorder, running.device)
        #expect(device.emit(Fixtures.yuyvFrame(), sequence: UInt32.max))
        #expect(device.emit(Fixtures.yuyvFrame(), sequence: 0))
        #expect(device.emit(Fixtures.yuyvFrame(), sequence: 2))
        let events = try await recorder.wait { $0.frames.count == 3 }
        await session.stop()
        #expect(events.frames.map(\.droppedBefore) == [0, 0, 1])
    }

    @Test("real MJPEG frames pass; truncated and damaged ones are dropped and counted, and the stream goes on")
    func mjpegValidation() async throws {
        let running = try await RunningSession.start { session in
            session.configuration.format = FormatRequest(pixelFormat: .mjpeg, size: FrameSize(width: 1280, height: 720))
            session.configuration.bufferCount = 8  // room for all six frames before the session dequeues any
        }
        let (session, recorder, device) = (running.session, running.recorder, running.device)
        #expect(device.format.pixelFormat == .mjpeg)
        let frame = try Fixtures.webcamFrame()
        let truncated = Array(frame.prefix(frame.count / 2))
        let padded = frame + [UInt8](repeating: 0, count: 37)  // some cameras pad after EOI
        #expect(device.emit(frame, sequence: 0))
        #expect(device.emit(truncated, sequence: 1))
        #expect(device.emit(Array(frame.dropFirst(2)), sequence: 2))
        #expect(device.emit(frame, sequence: 3, flags: [.timestampMonotonic, .error]))
        #expect(device.emit(padded, sequence: 4))
        #expect(device.emit([], sequence: 5))
        let events = try await recorder.wait { $0.frames.count + $0.rejections.count == 6 }
        await session.stop()
        #expect(events.frames.map(\.sequence) == [0, 4])
        #expect(events.frames[0].data == frame)
        #expect(
            events.rejections.map(\.reason) == [
                .malformedJPEG(.missingEndMarker), .malformedJPEG(.missingStartMarker), .driverError, .empty,
            ])
        #expect(session.statistics.framesRejected == 4)
        let decoded = try JPEGDecoder().decode(events.frames[0].data)
        #expect((decoded.width, decoded.height, decoded.subsampling) == (640, 480, .s422))
    }

    @Test("a short raw frame is rejected with the sizes")
    func shortRawFrame() async throws {
        let running = try await RunningSession.start { session in
            session.configuration.format = FormatRequest(pixelFormat: .yuyv, size: FrameSize(width: 640, height: 480))
        }
        let (session, recorder) = (running.session, running.recorder)
        #expect(running.device.emit(Array(Fixtures.yuyvFrame().prefix(1000)), sequence: 0))
        let events = try await recorder.wait { !$0.rejections.isEmpty }
        await session.stop()
        #expect(events.rejections.first?.reason == .short(expected: 614_400, received: 1000))
    }

    @Test("an unplug while streaming fails the session with the disconnect error and releases the device")
    func unplug() async throws {
        let running = try await RunningSession.start()
        let (session, recorder, device) = (running.session, running.recorder, running.device)
        device.failNextDequeue(with: .noSuchDevice)
        let events = try await recorder.waitForPhase { $0.failure != nil }
        #expect(events.phases.last?.failure == .disconnected(path: "/dev/video-scripted"))
        await session.stop()
        #expect(device.isClosed)
        #expect(session.phase == .idle)
    }

    @Test("EBUSY when setting the format reports the device busy")
    func busy() async throws {
        let factory = ScriptedDeviceFactory(
            script: {
                var script = ScriptedVideoDevice.Script()
                script.failures["VIDIOC_S_FMT"] = .busy
                return script
            }())
        let session = factory.makeSession(devicePath: "/dev/null")
        let recorder = SessionRecorder(session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        let events = try await recorder.waitForPhase { $0.failure != nil }
        guard case .deviceBusy(let path, _, _) = events.phases.last?.failure else {
            Issue.record("expected busy, got \(String(describing: events.phases.last))")
            return
        }
        #expect(path == "/dev/null")
        #expect(try #require(factory.latest).isClosed)
    }

    @Test("a driver that substitutes another format fails an explicit request and is noted under auto")
    func substitution() async throws {
        var script = ScriptedVideoDevice.Script()
        script.substitutedFormat = .yuyv
        let factory = ScriptedDeviceFactory(script: script)
        let session = factory.makeSession()
        session.configuration.format = FormatRequest(pixelFormat: .mjpeg)
        let recorder = SessionRecorder(session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        let events = try await recorder.waitForPhase { $0.failure != nil }
        #expect(
            events.phases.last?.failure
                == .unsupportedFormat(path: "/dev/video-scripted", requested: "MJPG", available: [.yuyv, .mjpeg]))

        session.configuration.format = FormatRequest(size: FrameSize(width: 1280, height: 720), framesPerSecond: 30)
        session.startRunning()
        let running = try await recorder.waitForPhase(\.isRunning)
        guard case .running(let negotiated) = running.phases.last else {
            Issue.record("the last phase is not running: \(running.phases)")
            return
        }
        #expect(negotiated.format.pixelFormat == .yuyv)
        #expect(negotiated.adjustments == ["the driver substituted YUYV for MJPG"])
        await session.stop()
    }

    @Test("a device with no native format is reopened through libv4l2")
    func automaticLibV4L2() async throws {
        var script = ScriptedVideoDevice.Script()
        script.formats = [
            SupportedFormat(
                pixelFormat: PixelFormatDescription(fourCC: "BA81", description: "8-bit Bayer"),
                frameSizes: [
                    SupportedFrameSize(sizes: .discrete(FrameSize(width: 640, height: 480)), frameIntervals: nil)
                ])
        ]
        let factory = ScriptedDeviceFactory(script: script)
        let session = factory.makeSession()
        let recorder = SessionRecorder(session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        // The scripted device cannot convert, so the libv4l2 attempt lists Bayer again and is refused:
        // what matters here is that the session tried libv4l2 and said what is available.
        let events = try await recorder.waitForPhase { $0.failure != nil }
        #expect(factory.devices.map(\.usesLibV4L2) == [false, true])
        #expect(factory.devices.allSatisfy { $0.isClosed })
        #expect(
            events.phases.last?.failure
                == .unsupportedFormat(path: "/dev/video-scripted", requested: "auto", available: ["BA81"]))
    }

    @Test("a configuration committed while running restarts the stream once with the new format")
    func reconfigure() async throws {
        let factory = ScriptedDeviceFactory()
        let session = factory.makeSession()
        let recorder = SessionRecorder(session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        try await recorder.waitForPhase(\.isRunning)
        session.beginConfiguration()
        session.configuration.format.size = FrameSize(width: 1280, height: 720)
        session.configuration.format.framesPerSecond = 30
        session.configuration.bufferCount = 2
        session.commitConfiguration()
        let events = try await recorder.wait { $0.phases.filter(\.isRunning).count == 2 }
        await session.stop()
        #expect(factory.devices.count == 2)
        #expect(factory.devices[0].isClosed)
        guard case .running(let negotiated) = events.phases.last else {
            Issue.record("the last phase is not running: \(events.phases)")
            return
        }
        #expect(negotiated.format.pixelFormat == .mjpeg)
        #expect(negotiated.bufferCount == 2)
    }

    @Test("no frame within the timeout fails with a timeout")
    func stall() async throws {
        var script = ScriptedVideoDevice.Script()
        script.streamsOnItsOwn = true
        let factory = ScriptedDeviceFactory(script: script)
        let session = factory.makeSession()
        session.configuration.frameTimeout = .milliseconds(100)
        let recorder = SessionRecorder(session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        let events = try await recorder.waitForPhase { $0.failure != nil }
        #expect(events.phases.last?.failure == .timeout(path: "/dev/video-scripted", seconds: 0.1, framesReceived: 0))
    }

    @Test("a scripted device owes a frame only once its test emits one: a test's own pace never times out")
    func timeoutCountsOwedFrames() async throws {
        let running = try await RunningSession.start { $0.configuration.frameTimeout = .milliseconds(100) }
        let (session, recorder, device) = (running.session, running.recorder, running.device)
        #expect(device.frameOwedSince(lastDrain: 7) == nil, "nothing emitted: nothing owed")
        // Three timeouts without a frame, at least (a busy machine makes it longer, never shorter):
        // a sensor's session would have failed; this one owes nothing and keeps running.
        try await Task.sleep(for: .milliseconds(300))
        let before = MonotonicClock.nanoseconds()
        #expect(device.emit(Fixtures.yuyvFrame(), sequence: 0))
        if let owed = device.frameOwedSince(lastDrain: 7) {
            #expect(owed >= before, "owed from the emit on, not from the last drain")
        }
        let events = try await recorder.wait { $0.frames.count == 1 }
        #expect(events.phases.allSatisfy { $0.failure == nil }, "\(events.phases)")
        #expect(device.frameOwedSince(lastDrain: 7) == nil, "the frame was dequeued")
        await session.stop()
    }

    @Test("opening failures become the user's situation")
    func openFailures() async throws {
        for (errno, path) in [(Errno.noSuchFile, "/dev/video-absent"), (.noSuchDevice, "/dev/null")] {
            let factory = ScriptedDeviceFactory(openFailure: errno)
            let session = factory.makeSession(devicePath: path)
            let recorder = SessionRecorder(session)
            session.locationSource = NoPositionSource()
            session.startRunning()
            let events = try await recorder.waitForPhase { $0.failure != nil }
            let expected: CaptureError =
                errno == .noSuchFile ? .deviceNotFound(path: path) : .deviceGone(path: path, errno: .noSuchDevice)
            #expect(events.phases.last?.failure == expected)
        }
    }

    @Test("startRunning returns before the device is opened, and the observers compose")
    func nonBlockingAndComposition() async throws {
        let factory = ScriptedDeviceFactory()
        let session = factory.makeSession()
        let gate = DispatchSemaphore(value: 0)
        session.queue.async { gate.wait() }  // hold the session queue
        let first = SessionRecorder(session)
        let second = SessionRecorder(session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        session.startRunning()
        #expect(factory.devices.isEmpty, "start returned while the session queue was still blocked")
        gate.signal()
        try await first.waitForPhase(\.isRunning)
        try await second.waitForPhase(\.isRunning)
        await session.stop()
        #expect(factory.devices.count == 1, "a second start while running does nothing")
        #expect(first.events.phases == second.events.phases)
    }

    @Test("the frame handler is a single binding: the last one set gets the frames")
    func singleFrameHandler() async throws {
        let factory = ScriptedDeviceFactory()
        let session = factory.makeSession()
        let recorder = SessionRecorder(session)
        let stale = SessionRecorder.Counter()
        session.setFrameHandler { _ in stale.increment() }
        let current = SessionRecorder(session)  // sets the handler again
        session.locationSource = NoPositionSource()
        session.startRunning()
        try await recorder.waitForPhase(\.isRunning)
        #expect(try #require(factory.latest).emit(Fixtures.yuyvFrame(), sequence: 0))
        try await current.wait { $0.frames.count == 1 }
        await session.stop()
        #expect(stale.value == 0)
        #expect(recorder.events.frames.isEmpty)
    }
}

/// Reconnection over the scripted device, with a link to /dev/null as the camera's node: removing
/// the link is unplugging it, creating it again is plugging it back in.
@Suite("Capture session reconnection", .timeLimit(.minutes(10)))
struct CaptureSessionReconnectionTests {
    /// A camera node that is a link to /dev/null in a fresh directory.
    static func pluggedNode() throws -> (directory: URL, node: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "arcapture-replug-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let node = directory.appendingPathComponent("video0").path
        try FileManager.default.createSymbolicLink(atPath: node, withDestinationPath: "/dev/null")
        return (directory, node)
    }

    @Test("an unplugged camera is waited for, and the stream resumes with the same format and controls")
    func reconnects() async throws {
        let (directory, node) = try Self.pluggedNode()
        defer { try? FileManager.default.removeItem(at: directory) }
        var script = ScriptedVideoDevice.Script()
        script.controls = [ControlSettingTests.brightness]
        let factory = ScriptedDeviceFactory(script: script)
        let session = factory.makeSession(devicePath: node)
        session.configuration.reconnects = true
        session.configuration.format = FormatRequest(pixelFormat: .yuyv, size: FrameSize(width: 640, height: 480))
        session.configuration.controls = [ControlSetting(parsing: "brightness=42")].compactMap { $0 }
        let recorder = SessionRecorder(session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        try await recorder.waitForPhase(\.isRunning)
        let first = try #require(factory.latest)

        try FileManager.default.removeItem(atPath: node)  // unplugged
        first.failNextDequeue(with: .noSuchDevice)
        try await recorder.waitForPhase { if case .interrupted = $0 { return true } else { return false } }
        // The descriptor closes when Dispatch runs the readiness source's cancel handler, just after.
        while !first.isClosed { await Task.yield() }
        #expect(factory.devices.count == 1, "nothing is opened while the camera is away")

        try FileManager.default.createSymbolicLink(atPath: node, withDestinationPath: "/dev/null")  // back
        let events = try await recorder.wait { $0.phases.filter(\.isRunning).count == 2 }
        let second = try #require(factory.latest)
        #expect(second !== first)
        #expect(second.controlValue(0x0098_0900) == 42, "controls are restored")
        #expect(second.format.pixelFormat == .yuyv)
        #expect(second.emit(Fixtures.yuyvFrame(), sequence: 0))
        try await recorder.wait { $0.frames.count == 1 }
        await session.stop()
        let names = events.phases.map(\.description)
        #expect(names == ["starting", "running", "interrupted", "starting", "running"])
    }

    @Test("stopping while waiting for the camera ends the wait")
    func stopWhileWaiting() async throws {
        let (directory, node) = try Self.pluggedNode()
        defer { try? FileManager.default.removeItem(at: directory) }
        let factory = ScriptedDeviceFactory()
        let session = factory.makeSession(devicePath: node)
        session.configuration.reconnects = true
        let recorder = SessionRecorder(session)
        session.locationSource = NoPositionSource()
        session.startRunning()
        try await recorder.waitForPhase(\.isRunning)
        try FileManager.default.removeItem(atPath: node)
        try #require(factory.latest).failNextDequeue(with: .noSuchDevice)
        try await recorder.waitForPhase { if case .interrupted = $0 { return true } else { return false } }
        await session.stop()
        #expect(session.phase == .idle)
        let phases = recorder.events.phases.count
        try FileManager.default.createSymbolicLink(atPath: node, withDestinationPath: "/dev/null")
        // The camera is back: a second session waiting for it, as the first did, opens it and
        // runs; the stopped one has not opened it meanwhile (its wait would have seen the node as
        // soon as this one, polling the same way), nor changed phase.
        let watcher = factory.makeSession(devicePath: node)
        watcher.configuration.reconnects = true
        let watcherRecorder = SessionRecorder(watcher)
        watcher.locationSource = NoPositionSource()
        watcher.startRunning()
        try await watcherRecorder.waitForPhase(\.isRunning)
        await watcher.stop()
        #expect(factory.devices.count == 2, "the stopped session did not reopen the camera: only the watcher did")
        #expect(recorder.events.phases.count == phases, "\(recorder.events.phases)")
    }
}
