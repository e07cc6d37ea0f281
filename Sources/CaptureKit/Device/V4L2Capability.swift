/// A node's identity and abilities, as `VIDIOC_QUERYCAP` reports them.
public struct V4L2Capability: Hashable, Sendable {
    /// The kernel driver's name, such as `uvcvideo` or `vivid`.
    public var driver: String
    /// The device's name, such as "HD Pro Webcam C920".
    public var card: String
    /// Where the device sits, such as `usb-0000:00:14.0-1`: stable across reboots for the same port.
    public var busInfo: String
    /// The driver's version, packed as `KERNEL_VERSION(major, minor, patch)`.
    public var version: UInt32
    /// The capabilities of the whole physical device.
    public var capabilities: DeviceCapabilities
    /// The capabilities of this node (`device_caps`), when the driver reports them.
    public var deviceCapabilities: DeviceCapabilities?

    /// Creates a capability record.
    public init(
        driver: String, card: String, busInfo: String, version: UInt32,
        capabilities: DeviceCapabilities, deviceCapabilities: DeviceCapabilities?
    ) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.version = version
        self.capabilities = capabilities
        self.deviceCapabilities = deviceCapabilities
    }

    /// The capabilities that describe this node: `device_caps` when the driver sets
    /// `V4L2_CAP_DEVICE_CAPS`, else the device-wide field (old drivers).
    public var nodeCapabilities: DeviceCapabilities { deviceCapabilities ?? capabilities }

    /// Whether this node captures video: single- or multi-planar.
    public var isVideoCapture: Bool {
        !nodeCapabilities.isDisjoint(with: [.videoCapture, .videoCaptureMultiplanar])
    }

    /// Whether this node captures video only through the multi-planar API.
    public var isMultiplanarOnly: Bool {
        nodeCapabilities.contains(.videoCaptureMultiplanar) && !nodeCapabilities.contains(.videoCapture)
    }

    /// The driver version as `major.minor.patch`.
    public var versionString: String { "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)" }
}
