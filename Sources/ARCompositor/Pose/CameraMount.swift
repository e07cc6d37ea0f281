import Positioning

/// How the camera sits on whatever carries the orientation sensor (a car's course, a receiver's
/// antenna baseline, an IMU): yaw, pitch and roll of the camera relative to that body.
///
/// A dash camera looking ahead is `CameraMount()`; one looking backwards has `yaw: 180`; one tilted
/// down 10° has `pitch: -10`. The camera's orientation is the body's turned by the mount, composed
/// as rotations (not added angle by angle), so a mount yaw stays correct when the body pitches or
/// rolls.
public struct CameraMount: Hashable, Sendable {
    /// Degrees clockwise, seen from above, from the body's forward direction to the camera's.
    public var yaw: Double
    /// Degrees up from the body's forward plane.
    public var pitch: Double
    /// Degrees clockwise about the camera's axis, seen from behind.
    public var roll: Double

    /// Creates a mount.
    public init(yaw: Double = 0, pitch: Double = 0, roll: Double = 0) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }

    /// The camera's orientation when the body has `body`'s orientation.
    ///
    /// With R(o) the ENU→camera rotation of an orientation, R(0) the one at zero, and the mount's
    /// rotation R(m) relative to a level body facing north: R_camera = R(m) · R(0)ᵀ · R(body). For
    /// a level body this is exactly heading + yaw, pitch and roll of the mount.
    public func cameraOrientation(body: DeviceOrientation) -> DeviceOrientation {
        if body.pitch == 0 && body.roll == 0 {
            return DeviceOrientation(heading: CompassDegrees.wrapped(body.heading + yaw), pitch: pitch, roll: roll)
        }
        let mount = DeviceOrientation(heading: yaw, pitch: pitch, roll: roll).rotationMatrix
        let zero = DeviceOrientation(heading: 0, pitch: 0, roll: 0).rotationMatrix
        return DeviceOrientation(rotationMatrix: mount * zero.transposed * body.rotationMatrix)
    }
}
