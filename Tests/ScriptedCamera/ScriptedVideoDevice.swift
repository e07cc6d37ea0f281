import ArcaptureCore
@_spi(Testing) import CaptureKit
import Foundation
import Glibc

/// A fake V4L2 capture node for unit tests: it answers from a script (capability, formats,
/// controls, faults) and produces frames when the test calls ``emit(_:sequence:flags:timestampNanoseconds:)``.
///
/// It keeps V4L2's buffer discipline (buffers must be requested, mapped, queued; a frame fills a
/// queued buffer; a dequeued buffer must be queued again) and signals readiness through a real pipe,
/// so the session's dispatch source and drain loop run exactly as on a kernel device. Every call is
/// logged, so tests can check that stopping released everything in order.
///
/// `@unchecked Sendable`: all mutable state is behind `state`, a lock.
@_spi(Testing) public final class ScriptedVideoDevice: VideoDeviceDriver, @unchecked Sendable {
    /// What the device offers and how it fails.
    public struct Script: Sendable {
        /// What `VIDIOC_QUERYCAP` answers.
        public var capability = V4L2Capability(
            driver: "scripted", card: "Scripted Camera", busInfo: "usb-test-1", version: 0x06_01_00,
            capabilities: [.videoCapture, .streaming, .deviceCaps], deviceCapabilities: [.videoCapture, .streaming])
        /// The formats, sizes and rates offered.
        public var formats: [SupportedFormat] = ScriptedVideoDevice.webcamFormats
        /// The controls offered.
        public var controls: [DeviceControl] = []
        /// The format before anything is set.
        public var initialFormat = V4L2Format(pixelFormat: .yuyv, width: 640, height: 480)
        /// Requests that fail, by name (`VIDIOC_S_FMT`), with the errno to return.
        public var failures: [String: Errno] = [:]
        /// When set, `VIDIOC_S_FMT` applies this pixel format whatever is asked (as vivid does for MJPG).
        public var substitutedFormat: FourCC?
        /// Whether the driver supports frame intervals.
        public var supportsFrameIntervals = true
        /// How many buffers `VIDIOC_REQBUFS` grants at most.
        public var maximumBuffers: UInt32 = 8
        /// Whether the device owes frames all the time, as a sensor that streams on its own does,
        /// so that the session's frame timeout runs from its last drain (the stall test's device).
        /// By default it owes a frame only once its test has emitted one: see
        /// ``ScriptedVideoDevice/frameOwedSince(lastDrain:)``.
        public var streamsOnItsOwn = false

        /// A webcam-like device: the usual formats, no controls, no failures.
        public init() {}
    }

    /// A webcam's usual offer: YUYV up to 1280x720 at 10 fps, MJPEG 1280x720 at 30 fps.
    public static let webcamFormats: [SupportedFormat] = [
        SupportedFormat(
            pixelFormat: PixelFormatDescription(fourCC: .yuyv, description: "YUYV 4:2:2"),
            frameSizes: [
                SupportedFrameSize(
                    sizes: .discrete(FrameSize(width: 640, height: 480)), frameIntervals: .discrete(rates([30, 15]))),
                SupportedFrameSize(
                    sizes: .discrete(FrameSize(width: 1280, height: 720)), frameIntervals: .discrete(rates([10, 5]))),
            ]),
        SupportedFormat(
            pixelFormat: PixelFormatDescription(fourCC: .mjpeg, description: "Motion-JPEG", isCompressed: true),
            frameSizes: [
                SupportedFrameSize(
                    sizes: .discrete(FrameSize(width: 640, height: 480)), frameIntervals: .discrete(rates([30, 15]))),
                SupportedFrameSize(
                    sizes: .discrete(FrameSize(width: 1280, height: 720)), frameIntervals: .discrete(rates([30, 15]))),
            ]),
    ]

    /// Frame intervals for these rates.
    public static func rates(_ values: [Double]) -> [FrameInterval] {
        values.compactMap { FrameInterval(framesPerSecond: $0) }
    }

    private struct State {
        var script: Script
        var format: V4L2Format
        var interval = FrameInterval(numerator: 1, denominator: 30)
        var buffers: [UnsafeMutableRawBufferPointer] = []
        var mappedCount = 0
        var queued: [UInt32] = []
        var filled: [DequeuedBuffer] = []
        /// CLOCK_MONOTONIC when each of `filled` was emitted, oldest first.
        var filledAt: [Int64] = []
        var streaming = false
        /// CLOCK_MONOTONIC at VIDIOC_STREAMON: default timestamps count from it, as a sensor's do.
        var streamOnNanoseconds: Int64 = 0
        var closed = false
        var calls: [String] = []
    }

    /// The node's path.
    public let path: String
    /// Whether the session opened it through libv4l2.
    public let usesLibV4L2: Bool
    private let state: Locked<State>
    private let pipeDescriptors: (read: Int32, write: Int32)

    /// Creates a device playing `script`.
    public init(path: String = "/dev/video-scripted", script: Script = Script(), usesLibV4L2: Bool = false) {
        self.path = path
        self.usesLibV4L2 = usesLibV4L2
        state = Locked(State(script: script, format: script.initialFormat))
        var descriptors: [Int32] = [-1, -1]
        let created = pipe(&descriptors)
        precondition(created == 0, "pipe() failed")
        _ = fcntl(descriptors[0], F_SETFL, O_NONBLOCK)
        pipeDescriptors = (descriptors[0], descriptors[1])
    }

    deinit {
        Glibc.close(pipeDescriptors.read)
        Glibc.close(pipeDescriptors.write)
        state.withLock { state in
            for buffer in state.buffers { buffer.deallocate() }
        }
    }

    /// The calls made so far, in order.
    public var calls: [String] { state.withLock { $0.calls } }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Whether the device is streaming.
    public var isStreaming: Bool { state.withLock { $0.streaming } }

    /// The format set now.
    public var format: V4L2Format { state.withLock { $0.format } }

    /// Changes the script while running (to inject a fault mid-stream).
    public func update(_ change: (inout Script) -> Void) { state.withLock { change(&$0.script) } }

    /// Fills a queued buffer with `bytes` and makes it ready to dequeue, as a frame from the sensor.
    ///
    /// The buffer's timestamp is `timestampNanoseconds`, or with `stampedNow` the monotonic clock
    /// read here, once the device is known to stream (as a driver stamps a buffer it fills), or
    /// else counted from `VIDIOC_STREAMON` by `sequence`. A test that read the clock itself before
    /// calling could be descheduled across the session's STREAMON and hand in a time before it:
    /// the session then rightly skipped the frame as a leftover (a CI run under ThreadSanitizer).
    ///
    /// - Returns: false when no buffer is queued (a real driver would drop the frame).
    @discardableResult
    public func emit(
        _ bytes: [UInt8], sequence: UInt32, flags: BufferFlags = .timestampMonotonic,
        timestampNanoseconds: Int64? = nil,
        stampedNow: Bool = false
    )
        -> Bool
    {
        let ready = state.withLock { state -> Bool in
            guard state.streaming, !state.queued.isEmpty else { return false }
            let now = stampedNow ? MonotonicClock.nanoseconds() : nil
            let index = state.queued.removeFirst()
            let buffer = state.buffers[Int(index)]
            let count = min(bytes.count, buffer.count)
            bytes.withUnsafeBytes { source in
                if let from = source.baseAddress { buffer.baseAddress?.copyMemory(from: from, byteCount: count) }
            }
            // After STREAMON, as a real sensor's: the session takes a buffer stamped before it for a
            // leftover from an earlier stream (v4l2loopback hands one out).
            let timestamp =
                now ?? timestampNanoseconds ?? state.streamOnNanoseconds + Int64(sequence) * 33_333_333 + 1_000_000
            state.filled.append(
                DequeuedBuffer(
                    index: index, bytesUsed: UInt32(count), flags: flags, field: 1, sequence: sequence,
                    timestampNanoseconds: timestamp))
            state.filledAt.append(MonotonicClock.nanoseconds())
            return true
        }
        if ready {
            var byte: UInt8 = 1
            _ = write(pipeDescriptors.write, &byte, 1)
        }
        return ready
    }

    /// Makes the next `VIDIOC_DQBUF` fail with `errno` (an unplug is `ENODEV`), and wakes the reader.
    public func failNextDequeue(with errno: Errno) {
        state.withLock { $0.script.failures["VIDIOC_DQBUF"] = errno }
        var byte: UInt8 = 1
        _ = write(pipeDescriptors.write, &byte, 1)
    }

    // MARK: VideoDeviceDriver

    /// A pipe that is readable while a frame waits.
    public var readinessDescriptor: Int32 { pipeDescriptors.read }

    private func record(_ call: String) throws(SystemCallError) {
        let failure = state.withLock { state -> Errno? in
            precondition(!state.closed, "\(call) on a closed device")
            state.calls.append(call)
            return state.script.failures[call]
        }
        if let failure { throw SystemCallError(call: call, errno: failure) }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func queryCapability() throws(SystemCallError) -> V4L2Capability {
        try record("VIDIOC_QUERYCAP")
        return state.withLock { $0.script.capability }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func enumerateFormats(_ queue: BufferQueue) throws(SystemCallError) -> [PixelFormatDescription] {
        try record("VIDIOC_ENUM_FMT")
        return state.withLock { $0.script.formats.map(\.pixelFormat) }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func enumerateFrameSizes(_ fourCC: FourCC) throws(SystemCallError) -> [FrameSizeRange] {
        try record("VIDIOC_ENUM_FRAMESIZES")
        return state.withLock { state in
            state.script.formats.first { $0.fourCC == fourCC }?.frameSizes.map(\.sizes) ?? []
        }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func enumerateFrameIntervals(_ fourCC: FourCC, _ size: FrameSize) throws(SystemCallError)
        -> FrameIntervalRange?
    {
        try record("VIDIOC_ENUM_FRAMEINTERVALS")
        return state.withLock { state in
            state.script.formats.first { $0.fourCC == fourCC }?.frameSizes.first { $0.sizes.contains(size) }?
                .frameIntervals
        }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func enumerateControls() throws(SystemCallError) -> [DeviceControl] {
        try record("VIDIOC_QUERY_EXT_CTRL")
        return state.withLock { $0.script.controls }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func setControl(_ id: UInt32, type: ControlType, value: Int64) throws(SystemCallError) -> Int64? {
        try record("VIDIOC_S_EXT_CTRLS \(String(id, radix: 16))=\(value)")
        return state.withLock { state in
            guard let index = state.script.controls.firstIndex(where: { $0.id == id }) else { return nil }
            state.script.controls[index].value = value
            return value
        }
    }

    /// The current value of control `id`.
    public func controlValue(_ id: UInt32) -> Int64? {
        state.withLock { $0.script.controls.first { $0.id == id }?.value }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func currentFormat(_ queue: BufferQueue) throws(SystemCallError) -> V4L2Format {
        try record("VIDIOC_G_FMT")
        return state.withLock { $0.format }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func setFormat(_ format: V4L2Format, _ queue: BufferQueue) throws(SystemCallError) -> V4L2Format {
        try record("VIDIOC_S_FMT")
        return state.withLock { state in
            let fourCC = state.script.substitutedFormat ?? format.pixelFormat
            let bytesPerPixel: UInt32 = fourCC == .nv12 ? 1 : 2
            var applied = V4L2Format(
                pixelFormat: fourCC, width: format.width, height: format.height,
                bytesPerLine: fourCC == .mjpeg ? 0 : format.width * bytesPerPixel,
                sizeImage: fourCC == .nv12 ? format.width * format.height * 3 / 2 : format.width * format.height * 2)
            applied.field = 1
            state.format = applied
            return applied
        }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func currentFrameInterval(_ queue: BufferQueue) throws(SystemCallError) -> FrameInterval? {
        try record("VIDIOC_G_PARM")
        return state.withLock { $0.script.supportsFrameIntervals ? $0.interval : nil }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func setFrameInterval(_ interval: FrameInterval, _ queue: BufferQueue) throws(SystemCallError)
        -> FrameInterval?
    {
        try record("VIDIOC_S_PARM")
        return state.withLock { state in
            guard state.script.supportsFrameIntervals else { return nil }
            state.interval = interval
            return interval
        }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func requestBuffers(_ count: UInt32, _ queue: BufferQueue) throws(SystemCallError) -> UInt32 {
        try record("VIDIOC_REQBUFS \(count)")
        return state.withLock { state in
            precondition(state.mappedCount == 0 || count == 0, "REQBUFS while buffers are mapped")
            for buffer in state.buffers { buffer.deallocate() }
            let granted = min(count, state.script.maximumBuffers)
            let size = Int(max(state.format.sizeImage, 1))
            state.buffers = (0..<granted).map { _ in
                UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 64)
            }
            state.queued = []
            state.filled = []
            state.filledAt = []
            return granted
        }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func mapBuffer(_ index: UInt32, _ queue: BufferQueue) throws(SystemCallError)
        -> UnsafeMutableRawBufferPointer
    {
        try record("mmap \(index)")
        return state.withLock { state in
            state.mappedCount += 1
            return state.buffers[Int(index)]
        }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func unmapBuffer(_ buffer: UnsafeMutableRawBufferPointer) {
        state.withLock { state in
            state.calls.append("munmap")
            state.mappedCount -= 1
        }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func queueBuffer(_ index: UInt32, _ queue: BufferQueue) throws(SystemCallError) {
        try record("VIDIOC_QBUF")
        state.withLock { $0.queued.append(index) }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func dequeueBuffer(_ queue: BufferQueue) throws(SystemCallError) -> DequeuedBuffer? {
        let result = state.withLock { state -> Result<DequeuedBuffer?, SystemCallError> in
            if let failure = state.script.failures["VIDIOC_DQBUF"] {
                return .failure(SystemCallError(call: "VIDIOC_DQBUF", errno: failure))
            }
            guard !state.filled.isEmpty else { return .success(nil) }
            state.filledAt.removeFirst()
            return .success(state.filled.removeFirst())
        }
        var byte: UInt8 = 0
        _ = read(pipeDescriptors.read, &byte, 1)  // one readiness byte per buffer (or per fault)
        return try result.get()
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func startStreaming(_ queue: BufferQueue) throws(SystemCallError) {
        try record("VIDIOC_STREAMON")
        state.withLock {
            $0.streaming = true
            $0.streamOnNanoseconds = MonotonicClock.nanoseconds()
        }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func stopStreaming(_ queue: BufferQueue) throws(SystemCallError) {
        try record("VIDIOC_STREAMOFF")
        state.withLock { state in
            state.streaming = false
            state.queued = []
            state.filled = []
            state.filledAt = []
        }
    }

    /// When the oldest emitted frame still waiting to be dequeued was emitted, or nil when none
    /// waits: the session's frame timeout counts only while the session leaves a frame undrained,
    /// so a test's own pace (its task unscheduled for seconds on a busy machine) never fails a
    /// session. With ``Script/streamsOnItsOwn``, `lastDrain`, as a sensor's.
    public func frameOwedSince(lastDrain: Int64) -> Int64? {
        state.withLock { state in state.script.streamsOnItsOwn ? lastDrain : state.filledAt.first }
    }

    /// The scripted answer to the request `VideoDeviceDriver` documents.
    public func close() {
        state.withLock { state in
            state.calls.append("close")
            state.closed = true
        }
    }
}
