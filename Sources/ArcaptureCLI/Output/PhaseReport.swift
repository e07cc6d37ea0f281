import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR

/// Says on stderr, as they happen, the phases a user needs to know why nothing is written yet:
/// waiting for a fix (and from where), running (with the format and the fix), interrupted (and why).
final class PhaseReport: Sendable {
    private let source: String
    private let held = Locked<GeoARView?>(nil)

    init(source: String) {
        self.source = source
    }

    /// The view whose format and fix the lines give.
    var view: GeoARView? {
        get { held.withLock { $0 } }
        set { held.withLock { $0 = newValue } }
    }

    /// Prints the line for `phase`, if it has one.
    func print(_ phase: LoadPhase) {
        switch phase {
        case .waitingForFix:
            Terminal.note("waiting for a location fix from \(source)…")
        case .running:
            var line = "running"
            if let format = view?.cameraFormat {
                line += ": \(format.format.width)x\(format.format.height) \(format.format.pixelFormat)"
                if let interval = format.frameInterval { line += " \(Self.rate(interval)) fps" }
            }
            if source != "none" {
                // The status says a fix came; the fix itself may reach the view a moment later.
                if let fix = view?.latestFix {
                    line += ", fix \(fix.mode)"
                    if let accuracy = fix.horizontalAccuracy { line += " ±\(Int(accuracy.rounded())) m" }
                } else if let status = view?.locationStatus {
                    line += ", fix \(status)"
                }
            }
            Terminal.note(line)
        case .interrupted(let why):
            Terminal.note("interrupted: \(why)")
        default:
            break
        }
    }

    private static func rate(_ interval: FrameInterval) -> String {
        let fps = Double(interval.denominator) / Double(max(1, interval.numerator))
        return fps == fps.rounded() ? String(Int(fps)) : String(format: "%.2f", fps)
    }
}
