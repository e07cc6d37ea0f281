import Foundation

extension CaptureDevice {
    /// The authorization state of the node at `path`.
    ///
    /// Mirrors `AVCaptureDevice.authorizationStatus(for:)`. On Linux there is no system prompt: the
    /// state is worked out by trying what capture will do (open read-write, `VIDIOC_QUERYCAP`, and a
    /// `VIDIOC_REQBUFS` that allocates nothing), then closing the node again. See
    /// ``AuthorizationStatus`` for what each state means here.
    ///
    /// This method is thread-safe.
    ///
    /// - Parameter path: a device node or a link to one.
    /// - Returns: the state.
    public static func authorizationStatus(for path: String) -> AuthorizationStatus {
        authorization(for: path).status
    }

    /// The authorization state of the node at `path`, with the problem and its fix when the state is
    /// not ``AuthorizationStatus/authorized``.
    ///
    /// This method is thread-safe.
    public static func authorization(for path: String) -> Authorization {
        AccessProbe().examine(path)
    }

    /// Settles ``AuthorizationStatus/notDetermined``: waits for the node to appear and become usable,
    /// up to `timeout`.
    ///
    /// Mirrors `AVCaptureDevice.requestAccess(for:)`. When the state is already settled the answer is
    /// immediate (`true` only for ``AuthorizationStatus/authorized``). Otherwise the parent directory
    /// (or the nearest one that exists, for a `/dev/v4l/by-id/…` link) is watched with inotify, and the
    /// node is examined again on each change, so a camera plugged in during the wait is picked up at
    /// once rather than at the next poll. A node that appears but is still root-only is given until the
    /// timeout for udev to apply its group and mode. Cancelling the task ends the wait with `false`.
    ///
    /// This method is thread-safe; the wait runs on a thread of its own, off the caller's.
    ///
    /// - Parameters:
    ///   - path: a device node or a link to one.
    ///   - timeout: how long to wait for the node.
    /// - Returns: whether the node is ``AuthorizationStatus/authorized`` at the end.
    public static func requestAccess(for path: String, timeout: Duration) async -> Bool {
        let probe = AccessProbe()
        let initial = probe.examine(path)
        guard initial.status == .notDetermined else { return initial.status == .authorized }
        guard let waiter = NodeAppearanceWaiter() else { return false }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own: the wait blocks in poll(2) for up to `timeout`, which would
                // starve Dispatch's few global worker threads (two on a two-core board).
                Thread.detachNewThread {
                    continuation.resume(returning: waiter.waitUntilAuthorized(path, deadline: deadline, probe: probe))
                }
            }
        } onCancel: {
            waiter.cancel()
        }
    }
}
