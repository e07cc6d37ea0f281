import ArcaptureCore
import CaptureKit

/// `--wait`: waits for an absent camera, unless the command is interrupted first.
enum DeviceWait {
    /// Waits up to `seconds` for the node at `path` to appear and become usable.
    ///
    /// - Parameters:
    ///   - path: the device node or link.
    ///   - seconds: the longest wait.
    ///   - interruption: returns when the command is interrupted; the wait then ends.
    /// - Returns: false when interrupted; otherwise true (whether the device came or not: ask
    ///   ``CaptureDevice/authorization(for:)`` next).
    static func wait(for path: String, seconds: Double, interruption: @escaping @Sendable () async -> Void) async
        -> Bool
    {
        Terminal.note("waiting up to \(FrameIntervalText.rate(seconds)) s for '\(path)'…")
        let timeout = Duration.milliseconds(Int64(seconds * 1000))
        let wait = Task { await CaptureDevice.requestAccess(for: path, timeout: timeout) }
        let interrupted = Locked(false)
        let watcher = Task {
            await interruption()
            interrupted.withLock { $0 = true }
            wait.cancel()
        }
        _ = await wait.value
        watcher.cancel()
        return !interrupted.withLock { $0 }
    }
}
