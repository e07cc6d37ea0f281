/// Why a virtual camera (a v4l2loopback output node) cannot be written, in a user's words, with
/// what to do about it.
public struct VirtualCameraError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure it is: the command line gives each its own exit status.
    public enum Kind: Sendable {
        /// The node is missing or is no video output (69: load v4l2loopback, name its node).
        case unavailable
        /// Another program writes to it (75: try again once it has stopped, or use another node).
        case busy
        /// The user may not open it (77: the group video).
        case denied
        /// Setting it up or writing a frame failed (74).
        case failed
    }

    /// The node, as given.
    public let path: String
    /// What went wrong and what to do.
    public let reason: String
    /// The kind of failure.
    public let kind: Kind

    /// Creates an error.
    public init(path: String, reason: String, kind: Kind) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }

    /// `cannot write the virtual camera 'PATH': REASON`.
    public var description: String { "cannot write the virtual camera '\(path)': \(reason)" }

    /// How to make a virtual camera, for the messages that say there is none.
    public static let setUp =
        "load v4l2loopback and name its node (Debian: sudo apt install v4l2loopback-dkms; sudo modprobe v4l2loopback exclusive_caps=1 card_label=arcapture; v4l2-ctl --list-devices shows the node)"
}
