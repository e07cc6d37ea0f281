/// Whether this process may use a camera, in AVFoundation's four states with a Linux meaning.
///
/// On iOS the user grants camera access once; on Linux access is the device node's owner, group and
/// mode, whether the device is present, and whether another process is streaming from it. The four
/// states keep AVFoundation's shape so code written against it reads the same:
///
/// - ``authorized``: the node opens read-write, is a single-planar video capture node that can stream,
///   and no other process owns its buffer queue.
/// - ``notDetermined``: not settled yet. The node is absent but may appear (a USB camera not plugged
///   in yet), or it exists but its device has gone away and may return.
///   ``CaptureDevice/requestAccess(for:timeout:)`` waits for it and settles the state.
/// - ``denied``: opening fails with `EACCES` or `EPERM`. The fix is group membership or a udev rule;
///   ``PermissionDiagnosis`` says which.
/// - ``restricted``: the node exists and can be opened, but cannot be used for capture: another
///   process is streaming from it (busy), it is not a video capture node (UVC cameras also expose a
///   metadata node), or it captures only through the multi-planar API, which arcapture does not support
///   yet.
public enum AuthorizationStatus: String, Sendable, Hashable, CaseIterable {
    /// The camera can be used now.
    case authorized
    /// Not settled yet: the node is absent (or its device gone) and may appear.
    case notDetermined
    /// The node's permissions or a security policy refuse this user.
    case denied
    /// The node exists but cannot be used for capture (busy, not a capture node, multi-planar only).
    case restricted
}
