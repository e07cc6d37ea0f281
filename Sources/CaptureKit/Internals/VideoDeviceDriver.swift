import ArcaptureCore

/// The calls CaptureKit makes on a V4L2 capture node, in Swift types.
///
/// This is the seam between CaptureKit's logic and the kernel. ``KernelVideoDevice`` implements it
/// with ioctls on a real node (raw or through libv4l2); the unit tests implement it with a scripted
/// fake device that can also play formats and faults no virtual driver offers (MJPEG frames, stepwise
/// sizes, zoom controls). Every method maps to one V4L2 request (or an index loop of one) and throws the
/// `SystemCallError` that request produced, so callers can tell `EBUSY` from `ENODEV`.
///
/// - Important: Not thread-safe. A driver belongs to one owner at a time: a ``CaptureSession``'s queue,
///   or the thread inspecting the device.
@_spi(Testing) public protocol VideoDeviceDriver: AnyObject {
    /// The node's path, for messages.
    var path: String { get }

    /// A descriptor that becomes readable when a filled buffer can be dequeued, or when the device
    /// reports an error; for a real device, the node itself.
    var readinessDescriptor: Int32 { get }

    /// `VIDIOC_QUERYCAP`.
    func queryCapability() throws(SystemCallError) -> V4L2Capability

    /// `VIDIOC_ENUM_FMT` from index 0 until the driver says there are no more.
    func enumerateFormats(_ queue: BufferQueue) throws(SystemCallError) -> [PixelFormatDescription]

    /// `VIDIOC_ENUM_FRAMESIZES` for a format: every discrete size, or the one stepwise or continuous
    /// range. Empty when the driver does not implement the request.
    func enumerateFrameSizes(_ fourCC: FourCC) throws(SystemCallError) -> [FrameSizeRange]

    /// `VIDIOC_ENUM_FRAMEINTERVALS` for a format and size, or nil when the driver does not implement
    /// the request for it.
    func enumerateFrameIntervals(_ fourCC: FourCC, _ size: FrameSize) throws(SystemCallError)
        -> FrameIntervalRange?

    /// `VIDIOC_QUERY_EXT_CTRL` over every control (with menus from `VIDIOC_QUERYMENU` and current
    /// values from `VIDIOC_G_EXT_CTRLS`), skipping control-class headings and disabled controls.
    func enumerateControls() throws(SystemCallError) -> [DeviceControl]

    /// `VIDIOC_S_EXT_CTRLS` for one control, then reads it back: the value the driver kept (drivers
    /// round to their step), or nil when it cannot be read.
    func setControl(_ id: UInt32, type: ControlType, value: Int64) throws(SystemCallError) -> Int64?

    /// `VIDIOC_G_FMT`.
    func currentFormat(_ queue: BufferQueue) throws(SystemCallError) -> V4L2Format

    /// `VIDIOC_S_FMT`: asks for `format` and returns what the driver applied, which may differ.
    func setFormat(_ format: V4L2Format, _ queue: BufferQueue) throws(SystemCallError) -> V4L2Format

    /// `VIDIOC_G_PARM`: the current frame interval, or nil when the driver cannot set one.
    func currentFrameInterval(_ queue: BufferQueue) throws(SystemCallError) -> FrameInterval?

    /// `VIDIOC_S_PARM`: asks for `interval` and returns what the driver applied, or nil when the
    /// driver cannot set the frame interval at all.
    func setFrameInterval(_ interval: FrameInterval, _ queue: BufferQueue) throws(SystemCallError)
        -> FrameInterval?

    /// `VIDIOC_REQBUFS` for memory-mapped buffers: asks for `count` and returns how many the driver
    /// allocated. A count of 0 frees them and gives up ownership of the queue.
    func requestBuffers(_ count: UInt32, _ queue: BufferQueue) throws(SystemCallError) -> UInt32

    /// `VIDIOC_QUERYBUF` then `mmap` of buffer `index`.
    func mapBuffer(_ index: UInt32, _ queue: BufferQueue) throws(SystemCallError) -> UnsafeMutableRawBufferPointer

    /// `munmap` of a buffer ``mapBuffer(_:_:)`` returned.
    func unmapBuffer(_ buffer: UnsafeMutableRawBufferPointer)

    /// `VIDIOC_QBUF`: hands buffer `index` to the driver to fill.
    func queueBuffer(_ index: UInt32, _ queue: BufferQueue) throws(SystemCallError)

    /// `VIDIOC_DQBUF` without blocking: the next filled buffer, or nil when none is ready (`EAGAIN`).
    func dequeueBuffer(_ queue: BufferQueue) throws(SystemCallError) -> DequeuedBuffer?

    /// `VIDIOC_STREAMON`.
    func startStreaming(_ queue: BufferQueue) throws(SystemCallError)

    /// `VIDIOC_STREAMOFF`: stops streaming and takes back every queued buffer.
    func stopStreaming(_ queue: BufferQueue) throws(SystemCallError)

    /// Closes the node. Later calls are programming errors.
    func close()

    /// When a missing frame starts counting against the session's frame timeout (CLOCK_MONOTONIC
    /// nanoseconds), given when the session last drained the device; nil while the device owes no
    /// frame.
    ///
    /// A sensor streams on its own, so a kernel device (and a canvas's clock) owes the next frame
    /// from the last drain on: the default answers `lastDrain`. The unit tests' scripted camera
    /// makes a frame only when its test emits one, so it owes one only from that moment on: a test
    /// slow to emit (its task not scheduled on a busy machine) is not a stalled camera, while a
    /// session that leaves an emitted frame undrained still fails within the timeout.
    func frameOwedSince(lastDrain: Int64) -> Int64?
}

extension VideoDeviceDriver {
    /// `lastDrain`: a device that streams on its own owes the next frame from the last drain on.
    @_spi(Testing) public func frameOwedSince(lastDrain: Int64) -> Int64? { lastDrain }
}
