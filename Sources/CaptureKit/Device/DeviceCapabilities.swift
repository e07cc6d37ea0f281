/// What a V4L2 node can do: the `V4L2_CAP_*` flags of `VIDIOC_QUERYCAP`.
///
/// The values are the kernel's ABI from `<linux/videodev2.h>`; a unit test checks them against the
/// header so they cannot drift.
public struct DeviceCapabilities: OptionSet, Hashable, Sendable {
    /// The flag bits.
    public let rawValue: UInt32

    /// Wraps flag bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Single-planar video capture.
    public static let videoCapture = DeviceCapabilities(rawValue: 0x0000_0001)
    /// Single-planar video output.
    public static let videoOutput = DeviceCapabilities(rawValue: 0x0000_0002)
    /// Video overlay.
    public static let videoOverlay = DeviceCapabilities(rawValue: 0x0000_0004)
    /// Raw VBI capture.
    public static let vbiCapture = DeviceCapabilities(rawValue: 0x0000_0010)
    /// Multi-planar video capture.
    public static let videoCaptureMultiplanar = DeviceCapabilities(rawValue: 0x0000_1000)
    /// Multi-planar video output.
    public static let videoOutputMultiplanar = DeviceCapabilities(rawValue: 0x0000_2000)
    /// Multi-planar memory-to-memory device (a codec or scaler, not a camera).
    public static let videoMemoryToMemoryMultiplanar = DeviceCapabilities(rawValue: 0x0000_4000)
    /// Memory-to-memory device (a codec or scaler, not a camera).
    public static let videoMemoryToMemory = DeviceCapabilities(rawValue: 0x0000_8000)
    /// Has a tuner.
    public static let tuner = DeviceCapabilities(rawValue: 0x0001_0000)
    /// Has audio inputs or outputs.
    public static let audio = DeviceCapabilities(rawValue: 0x0002_0000)
    /// Radio receiver.
    public static let radio = DeviceCapabilities(rawValue: 0x0004_0000)
    /// Software-defined radio capture.
    public static let sdrCapture = DeviceCapabilities(rawValue: 0x0010_0000)
    /// Supports the extended pixel format fields.
    public static let extendedPixelFormat = DeviceCapabilities(rawValue: 0x0020_0000)
    /// Metadata capture (UVC cameras expose one such node next to the video node).
    public static let metadataCapture = DeviceCapabilities(rawValue: 0x0080_0000)
    /// `read()`/`write()` I/O.
    public static let readWrite = DeviceCapabilities(rawValue: 0x0100_0000)
    /// Streaming I/O (mmap, userptr or dmabuf buffers).
    public static let streaming = DeviceCapabilities(rawValue: 0x0400_0000)
    /// Metadata output.
    public static let metadataOutput = DeviceCapabilities(rawValue: 0x0800_0000)
    /// Touch sensor.
    public static let touch = DeviceCapabilities(rawValue: 0x1000_0000)
    /// Configured through the media controller (a sensor pipeline such as a Raspberry Pi camera).
    public static let mediaControllerIO = DeviceCapabilities(rawValue: 0x2000_0000)
    /// The `device_caps` field is valid and describes this node (rather than the whole device).
    public static let deviceCaps = DeviceCapabilities(rawValue: 0x8000_0000)

    /// Names of the set flags, in bit order, for listings and JSON.
    public var names: [String] {
        Self.named.filter { contains($0.0) }.map(\.1)
    }

    private static let named: [(DeviceCapabilities, String)] = [
        (.videoCapture, "video-capture"), (.videoOutput, "video-output"), (.videoOverlay, "video-overlay"),
        (.vbiCapture, "vbi-capture"), (.videoCaptureMultiplanar, "video-capture-mplane"),
        (.videoOutputMultiplanar, "video-output-mplane"), (.videoMemoryToMemoryMultiplanar, "video-m2m-mplane"),
        (.videoMemoryToMemory, "video-m2m"), (.tuner, "tuner"), (.audio, "audio"), (.radio, "radio"),
        (.sdrCapture, "sdr-capture"), (.extendedPixelFormat, "ext-pix-format"),
        (.metadataCapture, "meta-capture"), (.readWrite, "read-write"), (.streaming, "streaming"),
        (.metadataOutput, "meta-output"), (.touch, "touch"), (.mediaControllerIO, "io-mc"),
        (.deviceCaps, "device-caps"),
    ]
}
