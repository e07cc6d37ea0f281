/// Where the camera points: a fixed mount, the direction of travel, a receiver's true heading, a
/// per-frame sidecar file, or an IMU.
///
/// Pose sources deliver ``LocationEvent/orientation(_:)`` events with the body's orientation
/// (heading, and pitch and roll when measured), plus status changes and warnings (see
/// ``EventSource``). How the camera sits on that body (a backwards-facing camera
/// is yaw 180) is applied where poses are computed (ARCompositor's `CameraMount`), once for every
/// kind of source.
public protocol PoseSource: EventSource {}
