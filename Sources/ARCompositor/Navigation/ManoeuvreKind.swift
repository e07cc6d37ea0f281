/// What the traveller does at a manoeuvre, from the route's turn angle there.
///
/// The thresholds follow what turn-by-turn navigation says aloud: under 20° the road just bends
/// (no manoeuvre), 20–45° is a slight turn ("bear"), 45–120° a turn, 120–160° a sharp turn, and
/// 160° or more a U-turn.
public enum ManoeuvreKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// Bear left (20–45°).
    case slightLeft = "slight-left"
    /// Turn left (45–120°).
    case left
    /// Turn sharp left (120–160°).
    case sharpLeft = "sharp-left"
    /// Bear right.
    case slightRight = "slight-right"
    /// Turn right.
    case right
    /// Turn sharp right.
    case sharpRight = "sharp-right"
    /// Turn back (160° or more either way).
    case uTurn = "u-turn"
    /// The end of the route.
    case arrive

    /// The smallest turn, in degrees, that is a manoeuvre.
    public static let minimumTurn = 20.0

    /// The kind for a turn of `angle` degrees (positive to the right, −180…180), or nil for a
    /// bend under ``minimumTurn``.
    public init?(turn angle: Double) {
        let size = abs(angle)
        switch size {
        case ..<Self.minimumTurn: return nil
        case ..<45: self = angle < 0 ? .slightLeft : .slightRight
        case ..<120: self = angle < 0 ? .left : .right
        case ..<160: self = angle < 0 ? .sharpLeft : .sharpRight
        default: self = .uTurn
        }
    }

    /// The instruction's verb phrase: "Turn left", "Bear right", "Make a U-turn", "Arrive".
    public var phrase: String {
        switch self {
        case .slightLeft: "Bear left"
        case .left: "Turn left"
        case .sharpLeft: "Turn sharp left"
        case .slightRight: "Bear right"
        case .right: "Turn right"
        case .sharpRight: "Turn sharp right"
        case .uTurn: "Make a U-turn"
        case .arrive: "Arrive"
        }
    }
}
