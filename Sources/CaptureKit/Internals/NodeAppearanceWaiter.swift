import ArcaptureCore
import Glibc

/// Blocks until a device node is authorized, its deadline passes, or it is cancelled, waking on
/// inotify events rather than polling.
///
/// Each round watches the node's nearest existing ancestor directory (for creations, renames and
/// attribute changes) and the node itself when present (for udev's chown/chmod), then examines the node,
/// then sleeps in `poll(2)` until an event, the deadline or a cancellation arrives. Watching before
/// examining closes the race where the node appears between the two.
///
/// `@unchecked Sendable`: the only state shared across threads is the cancellation, which
/// ``CancelPipe`` synchronises.
final class NodeAppearanceWaiter: @unchecked Sendable {
    private let cancellation: CancelPipe

    /// Creates a waiter, or nil when the kernel refuses a pipe (out of descriptors).
    init?() {
        guard let cancellation = try? CancelPipe() else { return nil }
        self.cancellation = cancellation
    }

    /// Wakes the waiting thread and makes it return `false`.
    func cancel() { cancellation.cancel() }

    /// Waits for `path` to become authorized.
    ///
    /// - Important: Blocks the calling thread; call it off the cooperative thread pool.
    func waitUntilAuthorized(_ path: String, deadline: ContinuousClock.Instant, probe: AccessProbe) -> Bool {
        while !cancellation.isCancelled {
            let created = SystemCall.retryingInterrupts("inotify_init1") {
                inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            }
            guard case .success(let inotify) = created else { return probe.examine(path).status == .authorized }
            defer { _ = SystemCall.once("close") { close(inotify) } }
            let directory = Self.nearestExistingAncestor(of: path)
            let directoryEvents = UInt32(IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
            _ = SystemCall.retryingInterrupts("inotify_add_watch") {
                inotify_add_watch(inotify, directory, directoryEvents)
            }
            // Fails while the node is absent; the directory watch covers that case.
            _ = SystemCall.retryingInterrupts("inotify_add_watch") {
                inotify_add_watch(inotify, path, UInt32(IN_ATTRIB))
            }

            switch probe.examine(path).status {
            case .authorized:
                return true
            case .restricted:
                return false
            case .denied, .notDetermined:
                // Denied right after appearing is normal: devtmpfs creates nodes root-only and udev
                // applies the group and mode a moment later. Keep waiting for that change.
                break
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return false }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var descriptors = [
                pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                pollfd(fd: cancellation.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            // EINTR is retried with the same timeout; the next round recomputes what remains.
            if case .failure = SystemCall.retryingInterrupts("poll", { poll(&descriptors, 2, milliseconds) }) {
                return false
            }
        }
        return false
    }

    /// The closest directory above `path` that exists: `/dev` for `/dev/video0`, and for
    /// `/dev/v4l/by-id/usb-…` whichever of its parents exists yet.
    static func nearestExistingAncestor(of path: String) -> String {
        var directory = path
        repeat {
            if let slash = directory.lastIndex(of: "/") {
                directory = slash == directory.startIndex ? "/" : String(directory[..<slash])
            } else {
                return "."
            }
            if case .success(let info) = FileSystem.status(of: directory), info.st_mode & S_IFMT == S_IFDIR {
                return directory
            }
        } while directory != "/"
        return "/"
    }
}
