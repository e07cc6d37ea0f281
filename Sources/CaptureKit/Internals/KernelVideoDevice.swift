import ArcaptureCore
internal import CV4L2
import Glibc

/// A V4L2 node opened on the real kernel driver: the production ``VideoDeviceDriver``.
///
/// By default every request is a raw ioctl. With `usesLibV4L2`, the descriptor is registered with
/// libv4l2 and requests go through `v4l2_ioctl`/`v4l2_mmap`, which adds libv4lconvert's emulated
/// formats (RGB24, YU12… from whatever the camera sends). libv4l2 hides the native formats it emulates
/// and has had conversion bugs (GStreamer turned it off by default), so it is used only on request or
/// when the device offers no format CaptureKit handles itself.
///
/// - Important: Not thread-safe; see ``VideoDeviceDriver``.
final class KernelVideoDevice: VideoDeviceDriver {
    let path: String
    let usesLibV4L2: Bool
    private let descriptor: Int32
    private var isClosed = false

    var readinessDescriptor: Int32 { descriptor }

    /// The most entries an enumeration reads (formats, sizes, intervals, controls). Real drivers list
    /// far fewer (vivid, among the largest, has 83 formats and about 70 controls); a driver that keeps
    /// answering past this is broken, and the listing stops rather than loop forever.
    static let enumerationLimit: UInt32 = 4096

    private init(path: String, descriptor: Int32, usesLibV4L2: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.usesLibV4L2 = usesLibV4L2
    }

    /// Opens `path` read-write and non-blocking (so `VIDIOC_DQBUF` never stalls the session queue).
    ///
    /// - Parameters:
    ///   - path: the device node, such as `/dev/video0`.
    ///   - usesLibV4L2: whether to route requests through libv4l2's conversion layer.
    /// - Throws: `open failed: …` or `v4l2_fd_open failed: …`.
    static func open(_ path: String, usesLibV4L2: Bool) throws(SystemCallError) -> KernelVideoDevice {
        let descriptor = try SystemCall.retryingInterrupts("open") {
            cv4l2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        }.get()
        if usesLibV4L2 {
            let registered = SystemCall.retryingInterrupts("v4l2_fd_open") { cv4l2_enable_libv4l2(descriptor) }
            if case .failure(let error) = registered {
                _ = SystemCall.once("close") { cv4l2_close(descriptor, 0) }
                throw error
            }
        }
        return KernelVideoDevice(path: path, descriptor: descriptor, usesLibV4L2: usesLibV4L2)
    }

    /// Issues `request` with `argument`, retrying `EINTR`.
    ///
    /// This is the raw adapter of the three-layer pattern: drivers' typed methods call it and turn
    /// its result into values or `SystemCallError`s.
    func ioctl<Argument>(_ request: V4L2Request, _ argument: inout Argument) -> Result<Void, SystemCallError> {
        precondition(!isClosed, "\(request.name) on a closed device")
        let descriptor = self.descriptor
        let libv4l2: Int32 = usesLibV4L2 ? 1 : 0
        return withUnsafeMutablePointer(to: &argument) { pointer in
            SystemCall.retryingInterrupts(request.name) {
                cv4l2_ioctl(descriptor, request.code, pointer, libv4l2)
            }.map { _ in () }
        }
    }

    func queryCapability() throws(SystemCallError) -> V4L2Capability {
        var capability = v4l2_capability()
        try ioctl(.queryCapability, &capability).get()
        let all = DeviceCapabilities(rawValue: capability.capabilities)
        return V4L2Capability(
            driver: stringFromCArray(capability.driver),
            card: stringFromCArray(capability.card),
            busInfo: stringFromCArray(capability.bus_info),
            version: capability.version,
            capabilities: all,
            deviceCapabilities: all.contains(.deviceCaps)
                ? DeviceCapabilities(rawValue: capability.device_caps) : nil
        )
    }

    /// `write(2)` of one whole frame to an output node (a virtual camera), retrying `EINTR`.
    func write(_ bytes: UnsafeRawBufferPointer) -> Result<Int, SystemCallError> {
        precondition(!isClosed, "write on a closed device")
        let descriptor = self.descriptor
        return SystemCall.retryingInterrupts("write") { Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        let descriptor = self.descriptor
        let libv4l2: Int32 = usesLibV4L2 ? 1 : 0
        // A failing close cannot be acted on (the descriptor is released either way); nothing to report.
        _ = SystemCall.once("close") { cv4l2_close(descriptor, libv4l2) }
    }
}
