import ArcaptureCore

/// A situation that stops capture, phrased for the person at the camera.
///
/// The cases follow ustreamer's list of what goes wrong with real cameras. ``description`` is one
/// line: what happened with the path quoted, then the fix in parentheses when there is one, such as
/// `cannot open '/dev/video0': permission denied, crw-rw---- root:video: user 'alice' is not in
/// group 'video' (add the user to the group with 'sudo usermod -aG video alice', then log out and
/// log in again)`. ``reason`` and ``fix`` give the two parts separately for JSON reports.
public enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No node exists at the path.
    case deviceNotFound(path: String)
    /// The node exists but its device does not (`ENODEV`/`ENXIO`): it was unplugged or is resetting.
    case deviceGone(path: String, errno: Errno)
    /// Opening the node was refused.
    case permissionDenied(PermissionDiagnosis)
    /// Another file handle owns the node's buffer queue.
    case deviceBusy(path: String, holders: [ProcessHolder], uninspectedProcesses: Int)
    /// The path is not a V4L2 device node.
    case notAVideoDevice(path: String, detail: String)
    /// The node is a V4L2 node, but not one that captures video.
    case notACaptureDevice(path: String, capabilities: [String])
    /// The node captures only through the multi-planar API, which is not supported yet.
    case multiplanarUnsupported(path: String)
    /// The node cannot stream (it offers neither mmap streaming nor anything CaptureKit can use).
    case streamingUnsupported(path: String)
    /// The requested pixel format is not offered.
    case unsupportedFormat(path: String, requested: String, available: [FourCC])
    /// No frame arrived within the time limit.
    case timeout(path: String, seconds: Double, framesReceived: Int)
    /// The device went away while streaming.
    case disconnected(path: String)
    /// A V4L2 request failed while setting up or running the stream.
    case streamingFailed(path: String, SystemCallError)
    /// The session's configuration cannot work, for example no device was chosen.
    case invalidConfiguration(String)
    /// A control setting cannot be applied to the device.
    case controlFailed(path: String, ControlSettingError)

    /// Whether the camera went away or stopped sending: the problems a reconnecting session waits out.
    public var isInterruption: Bool {
        switch self {
        case .disconnected, .deviceGone, .timeout, .deviceNotFound: true
        default: false
        }
    }

    /// What happened, without the fix.
    public var reason: String {
        switch self {
        case .deviceNotFound(let path):
            return "cannot open '\(path)': no such device"
        case .deviceGone(let path, let errno):
            return "cannot open '\(path)': the device is gone (\(errno.name))"
        case .permissionDenied(let diagnosis):
            return "cannot open '\(diagnosis.path)': permission denied, \(diagnosis.nodeDescription): "
                + diagnosis.summary
        case .deviceBusy(let path, let holders, let uninspected):
            let others = holders.filter { !$0.isCurrentProcess }
            if others.isEmpty {
                let hint = uninspected > 0 ? " (\(uninspected) processes of other users could not be inspected)" : ""
                return "'\(path)' is busy: another process is streaming from it\(hint)"
            }
            let list = others.map { "process \($0.pid) (\($0.command))" }.joined(separator: ", ")
            return "'\(path)' is busy: \(list) \(others.count == 1 ? "has" : "have") it open"
        case .notAVideoDevice(let path, let detail):
            return "'\(path)' is not a V4L2 device: \(detail)"
        case .notACaptureDevice(let path, let capabilities):
            let offered = capabilities.isEmpty ? "nothing" : capabilities.joined(separator: ", ")
            return "'\(path)' is not a video capture node (it offers: \(offered))"
        case .multiplanarUnsupported(let path):
            return "'\(path)' captures only through the multi-planar API, which arcapture does not support yet"
        case .streamingUnsupported(let path):
            return "'\(path)' does not support streaming I/O"
        case .unsupportedFormat(let path, let requested, let available):
            let list = available.map(\.description).joined(separator: ", ")
            return "'\(path)' does not offer pixel format '\(requested)' (it offers: \(list.isEmpty ? "none" : list))"
        case .timeout(let path, let seconds, let received):
            let after = received == 0 ? "no frame" : "no frame after frame \(received)"
            return "'\(path)': \(after) within \(FrameInterval.formatRate(seconds)) s"
        case .disconnected(let path):
            return "'\(path)' was disconnected while streaming"
        case .streamingFailed(let path, let error):
            return "streaming from '\(path)' failed: \(error)"
        case .invalidConfiguration(let message):
            return message
        case .controlFailed(let path, let error):
            return "'\(path)': \(error)"
        }
    }

    /// How to fix it, when there is something to do.
    public var fix: String? {
        switch self {
        case .deviceNotFound:
            return "is the camera connected? device discovery lists the cameras found"
        case .deviceGone, .disconnected:
            return "reconnect the camera; if it keeps dropping out, try another USB port or a powered hub"
        case .permissionDenied(let diagnosis):
            return diagnosis.fix
        case .deviceBusy(_, let holders, _):
            return holders.contains { !$0.isCurrentProcess }
                ? "stop that process, or try again later" : "try again later"
        case .notAVideoDevice, .notACaptureDevice:
            return "choose a video capture node; device discovery lists them "
                + "(UVC cameras also expose a metadata node, which cannot capture video)"
        case .multiplanarUnsupported, .streamingUnsupported:
            return nil
        case .unsupportedFormat:
            return "choose one of the offered formats, or let the session choose one"
        case .timeout:
            return "check the cable and the camera's power; at low light some cameras slow down "
                + "(a lower frame rate or a longer frame timeout may help)"
        case .streamingFailed(_, let error) where error.errno == .noSpace:
            return "the USB bus has no bandwidth left for this stream: use MJPEG, a smaller size or a "
                + "lower rate, or move the camera to another USB controller"
        case .streamingFailed, .invalidConfiguration, .controlFailed:
            return nil
        }
    }

    /// The reason followed by the fix in parentheses.
    public var description: String {
        guard let fix else { return reason }
        return "\(reason) (\(fix))"
    }
}
