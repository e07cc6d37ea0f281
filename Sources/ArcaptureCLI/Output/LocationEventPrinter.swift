import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR
import Positioning

/// Prints location events as they arrive (from the source's thread): a line of text each, or a
/// JSON object each (`--json`), and counts fixes so `location --count` can stop.
final class LocationEventPrinter: Sendable {
    private let json: Bool
    private let fixLimit: Int?
    private let counted = Locked(0)

    init(json: Bool, fixLimit: Int?) {
        self.json = json
        self.fixLimit = fixLimit
    }

    /// Fixes printed so far.
    var fixes: Int { counted.withLock { $0 } }

    /// Whether `--count` fixes have been printed.
    var isDone: Bool { fixLimit.map { fixes >= $0 } ?? false }

    /// Prints `event`, unless `--count` fixes were printed already: then nothing more is (a file
    /// source reads on while the command stops, and its heading events would trail the last fix).
    func print(_ event: LocationEvent) {
        let isFix = if case .fix = event { true } else { false }
        let proceed = counted.withLock { count -> Bool in
            guard fixLimit.map({ count < $0 }) ?? true else { return false }
            if isFix { count += 1 }
            return true
        }
        guard proceed else { return }
        let now = UTCTime.format(Date())
        if json {
            Terminal.out(JSONLinesLog.line(Self.object(event, now: now)))
        } else {
            Terminal.out(Self.text(event, now: now))
        }
    }

    static func text(_ event: LocationEvent, now: String) -> String {
        switch event {
        case .status(let status): return "\(now)  status   \(status)"
        case .warning(let text): return "\(now)  warning  \(text)"
        case .fix(let fix):
            var line = "\(now)  fix      \(UTCTime.format(fix.time))  \(fix.mode)  "
            line += String(format: "%.7f, %.7f", fix.coordinate.latitude, fix.coordinate.longitude)
            if let altitude = fix.coordinate.altitude {
                line += String(format: ", %.1f m", altitude)
            } else if let msl = fix.altitudeMeanSeaLevel {
                line += String(format: ", %.1f m above sea level", msl)
            }
            if let accuracy = fix.horizontalAccuracy { line += String(format: "  ±%.1f m", accuracy) }
            if let speed = fix.speed { line += String(format: "  %.1f m/s", speed) }
            if let course = fix.course { line += String(format: "  course %.1f°", course) }
            return line
        case .orientation(let sample):
            var line = "\(now)  heading  \(UTCTime.format(sample.time))  " + String(format: "%.2f°", sample.heading)
            if let pitch = sample.pitch { line += String(format: "  pitch %.2f°", pitch) }
            if let roll = sample.roll { line += String(format: "  roll %.2f°", roll) }
            return line + "  (\(sample.origin.rawValue))"
        }
    }

    static func object(_ event: LocationEvent, now: String) -> [String: Any] {
        var object: [String: Any] = ["received": now]
        switch event {
        case .status(let status):
            object["event"] = "status"
            object["status"] = status.description
        case .warning(let text):
            object["event"] = "warning"
            object["message"] = text
        case .fix(let fix):
            object["event"] = "fix"
            object["time"] = UTCTime.format(fix.time)
            object["mode"] = fix.mode.description
            object["lat"] = fix.coordinate.latitude
            object["lon"] = fix.coordinate.longitude
            object["alt_hae_m"] = Self.orNull(fix.coordinate.altitude)
            object["alt_msl_m"] = Self.orNull(fix.altitudeMeanSeaLevel)
            object["horizontal_accuracy_m"] = Self.orNull(fix.horizontalAccuracy)
            object["vertical_accuracy_m"] = Self.orNull(fix.verticalAccuracy)
            object["speed_mps"] = Self.orNull(fix.speed)
            object["course_deg"] = Self.orNull(fix.course)
        case .orientation(let sample):
            object["event"] = "heading"
            object["time"] = UTCTime.format(sample.time)
            object["heading_deg"] = sample.heading
            object["pitch_deg"] = Self.orNull(sample.pitch)
            object["roll_deg"] = Self.orNull(sample.roll)
            object["heading_accuracy_deg"] = Self.orNull(sample.headingAccuracy)
            object["origin"] = sample.origin.rawValue
        }
        return object
    }

    /// `value`, or JSON's null: a key without a value is null, never missing (docs/json.md).
    private static func orNull(_ value: Double?) -> Any { value.map { $0 as Any } ?? NSNull() }
}
