/// What a location source can say about its position right now, reported on every change.
///
/// "No fix yet" (the receiver answers but has no position) and "unavailable" (there is no receiver
/// or gpsd to answer) are different problems with different fixes, so they are different cases.
public enum LocationStatus: Hashable, Sendable, CustomStringConvertible {
    /// The source gives no positions by design (``NoPositionSource``).
    case notRequired
    /// Started; nothing heard yet.
    case starting
    /// The source cannot be reached or read (gpsd not running, serial port missing); the reason
    /// says which and the source keeps trying.
    case unavailable(String)
    /// The receiver answers but has no position yet.
    case noFix
    /// Positions arrive, in this mode.
    case fix(FixMode)
    /// There were positions, and now there are none (the receiver lost the sky).
    case lost
    /// A recorded source has delivered its last sample.
    case ended

    /// Whether positions are arriving.
    public var hasFix: Bool {
        if case .fix(let mode) = self { return mode >= .twoD }
        return false
    }

    /// Whether frames can be placed: there is a fix, or the source needs none
    /// (``notRequired``). A capture session waits in `CapturePhase/waitingForLocation(_:)` until
    /// this is true.
    public var isPositionReady: Bool { hasFix || self == .notRequired }

    /// `not-required`, `starting`, `unavailable: REASON`, `no-fix`, `2D`, `3D`, `lost`, `ended`.
    public var description: String {
        switch self {
        case .notRequired: "not-required"
        case .starting: "starting"
        case .unavailable(let reason): "unavailable: \(reason)"
        case .noFix: "no-fix"
        case .fix(let mode): mode == .noFix ? "no-fix" : mode.description
        case .lost: "lost"
        case .ended: "ended"
        }
    }
}
