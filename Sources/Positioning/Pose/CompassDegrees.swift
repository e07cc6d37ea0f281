/// Angles on the compass: the one place any angle is folded into a heading's range, so that a
/// heading that turns past north (a mount's yaw, a course's offset, a compass's declination) is
/// written the same way everywhere.
public enum CompassDegrees {
    /// `degrees` folded into 0 ..< 360: −10 is 350, 370 is 10, and −1e-15 is 0, not 360 (a
    /// tiny negative angle plus 360 rounds to 360 in floating point).
    public static func wrapped(_ degrees: Double) -> Double {
        let value = degrees.truncatingRemainder(dividingBy: 360)
        let positive = value < 0 ? value + 360 : value
        return positive >= 360 ? 0 : positive
    }
}
