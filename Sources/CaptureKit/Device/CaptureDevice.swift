/// A V4L2 video node and everything a user needs to choose and configure it: identity, stable
/// paths, whether this process may use it, and its formats, frame sizes, frame rates and controls.
///
/// This is AVCaptureDevice's counterpart. ``discover(deviceDirectory:)`` lists every `/dev/video*`
/// node; ``inspect(_:)`` describes one. The static authorization methods
/// (``authorizationStatus(for:)``, ``requestAccess(for:timeout:)``) live in an extension.
public struct CaptureDevice: Hashable, Sendable {
    /// The node, such as `/dev/video0`. Its number can change between boots and replugs.
    public var path: String
    /// Links to this node that stay the same across boots: `/dev/v4l/by-id/…` (the camera's USB
    /// identity) and `/dev/v4l/by-path/…` (the port it is plugged into), made by udev.
    public var stablePaths: [String]
    /// Whether this process may use the node for capture.
    public var authorization: Authorization
    /// The node's identity and abilities; nil when the node could not be opened.
    public var capability: V4L2Capability?
    /// The pixel formats with their sizes and rates, for a capture node.
    public var formats: [SupportedFormat]
    /// The controls (brightness, zoom, …), for a capture node.
    public var controls: [DeviceControl]
    /// The format the driver has set now.
    public var currentFormat: V4L2Format?
    /// The frame interval the driver has set now, when it supports setting one.
    public var currentFrameInterval: FrameInterval?

    /// Creates a device description.
    public init(
        path: String, stablePaths: [String], authorization: Authorization, capability: V4L2Capability?,
        formats: [SupportedFormat], controls: [DeviceControl], currentFormat: V4L2Format?,
        currentFrameInterval: FrameInterval?
    ) {
        self.path = path
        self.stablePaths = stablePaths
        self.authorization = authorization
        self.capability = capability
        self.formats = formats
        self.controls = controls
        self.currentFormat = currentFormat
        self.currentFrameInterval = currentFrameInterval
    }

    /// Whether the node captures video (single- or multi-planar). UVC cameras expose a metadata node
    /// next to each video node; it is not a capture node.
    public var isCaptureNode: Bool { capability?.isVideoCapture ?? false }

    /// Whether the node captures only through the multi-planar API.
    public var isMultiplanar: Bool { capability?.isMultiplanarOnly ?? false }
}
