import ArcaptureCore
import Foundation

/// A process that has a device node open, found through `/proc/*/fd`.
public struct ProcessHolder: Hashable, Sendable, CustomStringConvertible {
    /// The process id.
    public var pid: Int32
    /// The command name (`/proc/PID/comm`), such as `v4l2-ctl` or `ustreamer`.
    public var command: String
    /// Whether this is the calling process itself.
    public var isCurrentProcess: Bool

    /// Creates a holder record.
    public init(pid: Int32, command: String, isCurrentProcess: Bool = false) {
        self.pid = pid
        self.command = command
        self.isCurrentProcess = isCurrentProcess
    }

    /// `1234 (v4l2-ctl)`.
    public var description: String { "\(pid) (\(command))" }

    /// Finds the processes that have the device node at `path` open.
    ///
    /// Each `/proc/PID/fd/N` link is `stat`ed and compared by device number, so a holder that opened
    /// the node through a `/dev/v4l/by-id` link is found too. Processes of other users cannot be
    /// inspected without privileges; their number is returned so a message can say the list may be
    /// incomplete.
    ///
    /// - Parameter path: the device node.
    /// - Returns: the holders found, in pid order, and how many processes could not be inspected.
    public static func holders(ofDeviceAt path: String) -> (holders: [ProcessHolder], uninspected: Int) {
        guard case .success(let node) = FileSystem.status(of: path), FileSystem.isCharacterDevice(node),
            case .success(let entries) = FileSystem.entries(of: "/proc")
        else { return ([], 0) }
        let ownPID = getpid()
        var holders: [ProcessHolder] = []
        var uninspected = 0
        for pid in entries.compactMap(Int32.init).sorted() {
            guard case .success(let descriptors) = FileSystem.entries(of: "/proc/\(pid)/fd") else {
                uninspected += 1
                continue
            }
            let holdsNode = descriptors.contains { descriptor in
                guard case .success(let info) = FileSystem.status(of: "/proc/\(pid)/fd/\(descriptor)") else {
                    return false
                }
                return FileSystem.isCharacterDevice(info) && info.st_rdev == node.st_rdev
            }
            guard holdsNode else { continue }
            let command =
                FileSystem.readSmallFile("/proc/\(pid)/comm")?
                .trimmingCharacters(in: .newlines) ?? "?"
            holders.append(ProcessHolder(pid: pid, command: command, isCurrentProcess: pid == ownPID))
        }
        return (holders, uninspected)
    }
}
