import ArcaptureCore
internal import CV4L2
import Glibc

/// A capture node with no camera behind it: blank YUYV frames of one size at one rate, for a view
/// that draws everything it shows itself (a map view with no camera of its own).
///
/// Why a driver rather than a loop of its own: the session's whole machinery (phases, the frame
/// timeout, statistics, outputs, stop and Ctrl-C) then runs for a canvas exactly as for a camera,
/// and nothing above CaptureKit needs a second path. It keeps V4L2's buffer discipline (buffers are
/// requested, mapped, queued; a tick fills a queued one) so the session cannot tell it from a node.
///
/// Its clock is a `timerfd` on CLOCK_MONOTONIC, armed at `VIDIOC_STREAMON`: the readiness
/// descriptor becomes readable at each tick, and reading it says how many ticks passed. A tick
/// with no buffer queued (the consumer holds them all) is dropped as a driver drops a frame, and
/// the sequence number still counts it, so the session sees the gap.
///
/// - Important: Not thread-safe; see ``VideoDeviceDriver``.
final class CanvasVideoDevice: VideoDeviceDriver {
    let path: String
    private let size: FrameSize
    private let interval: FrameInterval
    private let timer: Int32
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var mapped = 0
    private var queued: [UInt32] = []
    private var streaming = false
    private var ticks: UInt64 = 0
    private var isClosed = false

    /// The bytes of one blank frame: YUYV, two bytes a pixel.
    private var frameBytes: Int { Int(size.width) * Int(size.height) * 2 }

    private init(path: String, size: FrameSize, interval: FrameInterval, timer: Int32) {
        self.path = path
        self.size = size
        self.interval = interval
        self.timer = timer
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    /// Makes a canvas of `size` ticking at `interval`.
    ///
    /// - Throws: `timerfd_create failed: …` (out of descriptors).
    static func open(path: String, size: FrameSize, interval: FrameInterval) throws(SystemCallError)
        -> CanvasVideoDevice
    {
        let timer = try SystemCall.retryingInterrupts("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        }.get()
        return CanvasVideoDevice(path: path, size: size, interval: interval, timer: timer)
    }

    var readinessDescriptor: Int32 { timer }

    func queryCapability() throws(SystemCallError) -> V4L2Capability {
        V4L2Capability(
            driver: "arcapture-canvas", card: "Canvas \(size.width)x\(size.height)", busInfo: "canvas",
            version: 0, capabilities: [.videoCapture, .streaming, .deviceCaps],
            deviceCapabilities: [.videoCapture, .streaming])
    }

    func enumerateFormats(_ queue: BufferQueue) throws(SystemCallError) -> [PixelFormatDescription] {
        [PixelFormatDescription(fourCC: .yuyv, description: "YUYV 4:2:2")]
    }

    func enumerateFrameSizes(_ fourCC: FourCC) throws(SystemCallError) -> [FrameSizeRange] {
        fourCC == .yuyv ? [.discrete(size)] : []
    }

    func enumerateFrameIntervals(_ fourCC: FourCC, _ size: FrameSize) throws(SystemCallError) -> FrameIntervalRange? {
        fourCC == .yuyv && size == self.size ? .discrete([interval]) : nil
    }

    func enumerateControls() throws(SystemCallError) -> [DeviceControl] { [] }

    func setControl(_ id: UInt32, type: ControlType, value: Int64) throws(SystemCallError) -> Int64? {
        throw SystemCallError(call: "VIDIOC_S_EXT_CTRLS", errno: .invalidArgument)
    }

    func currentFormat(_ queue: BufferQueue) throws(SystemCallError) -> V4L2Format {
        V4L2Format(
            pixelFormat: .yuyv, width: size.width, height: size.height, bytesPerLine: size.width * 2,
            sizeImage: UInt32(frameBytes))
    }

    /// Applies the canvas's own format whatever is asked, as a driver substitutes what it supports.
    func setFormat(_ format: V4L2Format, _ queue: BufferQueue) throws(SystemCallError) -> V4L2Format {
        try currentFormat(queue)
    }

    func currentFrameInterval(_ queue: BufferQueue) throws(SystemCallError) -> FrameInterval? { interval }

    func setFrameInterval(_ interval: FrameInterval, _ queue: BufferQueue) throws(SystemCallError)
        -> FrameInterval?
    {
        self.interval
    }

    func requestBuffers(_ count: UInt32, _ queue: BufferQueue) throws(SystemCallError) -> UInt32 {
        // As videobuf2 answers while buffers are mapped: freeing them would pull memory from
        // under the session.
        guard mapped == 0 else { throw SystemCallError(call: "VIDIOC_REQBUFS", errno: .busy) }
        for buffer in buffers { buffer.deallocate() }
        buffers = (0..<min(count, 32)).map { _ in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: frameBytes, alignment: 64)
            // Black in limited-range YCbCr: Y 16, Cb and Cr 128.
            for offset in stride(from: 0, to: buffer.count, by: 2) {
                buffer[offset] = 16
                buffer[offset + 1] = 128
            }
            return buffer
        }
        queued = []
        return UInt32(buffers.count)
    }

    func mapBuffer(_ index: UInt32, _ queue: BufferQueue) throws(SystemCallError) -> UnsafeMutableRawBufferPointer {
        guard Int(index) < buffers.count else { throw SystemCallError(call: "mmap", errno: .invalidArgument) }
        mapped += 1
        return buffers[Int(index)]
    }

    func unmapBuffer(_ buffer: UnsafeMutableRawBufferPointer) {
        mapped -= 1
    }

    func queueBuffer(_ index: UInt32, _ queue: BufferQueue) throws(SystemCallError) {
        guard Int(index) < buffers.count, !queued.contains(index) else {
            throw SystemCallError(call: "VIDIOC_QBUF", errno: .invalidArgument)
        }
        queued.append(index)
    }

    /// The next tick's frame, or nil when the timer has not fired since the last one.
    func dequeueBuffer(_ queue: BufferQueue) throws(SystemCallError) -> DequeuedBuffer? {
        guard streaming else { return nil }
        var expirations: UInt64 = 0
        let read = SystemCall.retryingInterrupts("read") { Glibc.read(timer, &expirations, 8) }
        switch read {
        case .failure(let error) where error.errno == .wouldBlock:
            return nil
        case .failure(let error):
            throw error
        case .success:
            break
        }
        ticks += expirations
        guard !queued.isEmpty else { return nil }  // every buffer held: this tick is dropped
        return DequeuedBuffer(
            index: queued.removeFirst(), bytesUsed: UInt32(frameBytes), flags: .timestampMonotonic, field: 1,
            sequence: UInt32(truncatingIfNeeded: ticks - 1), timestampNanoseconds: MonotonicClock.nanoseconds())
    }

    func startStreaming(_ queue: BufferQueue) throws(SystemCallError) {
        let nanoseconds = Int(interval.numerator) * 1_000_000_000 / Int(max(interval.denominator, 1))
        let period = timespec(tv_sec: nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        try arm(itimerspec(it_interval: period, it_value: period))
        ticks = 0
        streaming = true
    }

    func stopStreaming(_ queue: BufferQueue) throws(SystemCallError) {
        try arm(itimerspec())
        streaming = false
        queued = []
    }

    private func arm(_ setting: itimerspec) throws(SystemCallError) {
        var setting = setting
        _ = try SystemCall.retryingInterrupts("timerfd_settime") { timerfd_settime(timer, 0, &setting, nil) }.get()
    }

    func close() {
        precondition(!isClosed, "close on a closed canvas")
        isClosed = true
        _ = SystemCall.once("close") { Glibc.close(timer) }
    }
}
