/// A DJI photo's own orientation, from its XMP (`drone-dji:` namespace): the gimbal's yaw, pitch
/// and roll (the camera's, in degrees: yaw from true north, pitch up positive, -90 straight down)
/// and the aircraft's yaw, which the camera faces when the gimbal's yaw is not recorded.
public struct DroneAttitude: Hashable, Sendable {
    /// DJI's XMP namespace.
    public static let namespace = "http://www.dji.com/drone-dji/1.0/"

    /// `GimbalYawDegree`: the camera's heading, degrees clockwise from true north.
    public var gimbalYaw: Double?
    /// `GimbalPitchDegree`: degrees above the horizon (-90 looks straight down).
    public var gimbalPitch: Double?
    /// `GimbalRollDegree`: degrees clockwise seen from behind.
    public var gimbalRoll: Double?
    /// `FlightYawDegree`: the aircraft's heading.
    public var flightYaw: Double?

    /// Creates an attitude.
    public init(
        gimbalYaw: Double? = nil, gimbalPitch: Double? = nil, gimbalRoll: Double? = nil, flightYaw: Double? = nil
    ) {
        self.gimbalYaw = gimbalYaw
        self.gimbalPitch = gimbalPitch
        self.gimbalRoll = gimbalRoll
        self.flightYaw = flightYaw
    }

    /// The attitude an XMP packet records, or nil when it has no heading (neither yaw).
    public init?(_ xmp: XMPPacket) {
        func number(_ name: String, in range: ClosedRange<Double>) -> Double? {
            // "+45.20" and "-35.2" as DJI writes them; Double() takes a leading '+'.
            xmp.value(namespace: Self.namespace, property: name).flatMap(Double.init).flatMap {
                range.contains($0) ? $0 : nil
            }
        }
        gimbalYaw = number("GimbalYawDegree", in: -360...360)
        gimbalPitch = number("GimbalPitchDegree", in: -90...90)
        gimbalRoll = number("GimbalRollDegree", in: -180...180)
        flightYaw = number("FlightYawDegree", in: -360...360)
        guard gimbalYaw != nil || flightYaw != nil else { return nil }
    }
}
