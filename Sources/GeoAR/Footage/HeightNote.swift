import Foundation
import Positioning

/// What a run says of its heights: which datum the positions came in (on the ellipsoid, or above
/// sea level) and how they were put on the ellipsoid, with the separation used, so a label's
/// height is never a silent guess. A height left above sea level (no geoid grid and no
/// `--geoid-separation`) is a warning naming the fix.
enum HeightNote {
    /// The note (or, `isWarning`, the warning) for a track's fixes.
    static func track(_ track: RecordedTrack, assumedGeoidSeparation: Double?) -> (text: String, isWarning: Bool)? {
        if let warning = track.heightWarning { return (warning, true) }
        var counts: [AltitudeReference: Int] = [:]
        var first: (fix: LocationFix, altitude: Double, reference: AltitudeReference)?
        for fix in track.fixes {
            guard let found = fix.ellipsoidalAltitude(assumingGeoidSeparation: assumedGeoidSeparation) else { continue }
            counts[found.reference, default: 0] += 1
            if first == nil { first = (fix, found.altitude, found.reference) }
        }
        guard let first else { return nil }
        let parts = counts.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }
        var text =
            counts.count == 1 && counts.values.first == track.fixes.count
            ? "heights: all \(track.fixes.count) fixes \(first.reference)"
            : "heights: of \(track.fixes.count) fixes, " + parts.joined(separator: "; ")
        if let seaLevel = first.fix.altitudeMeanSeaLevel, first.reference != .ellipsoid {
            text += String(
                format: " (the first: %.1f m above sea level, %.1f m on the ellipsoid)", seaLevel, first.altitude)
        }
        if counts.keys.contains(where: \.isApproximate) {
            return (
                text + ": heights off by the geoid separation, tens of metres; "
                    + (GeoidGrid.unavailableReason ?? "or give the geoid separation"), true
            )
        }
        return (text, false)
    }

    /// The note for a folder of geotagged photos, whose GPS altitudes are above sea level.
    static func photos(assumedGeoidSeparation: Double?) -> (text: String, isWarning: Bool) {
        let (_, reference) = LocationFix.ellipsoidal(
            seaLevel: 0, latitude: 0, longitude: 0, assumingGeoidSeparation: assumedGeoidSeparation)
        let text = "heights: each photo's GPS altitude is above sea level (EXIF's datum)"
        switch reference {
        case .seaLevelGeoidModel(let model):
            return (text + ", put on the ellipsoid with \(model)'s geoid at the photo", false)
        case .seaLevelGivenSeparation: return (text + ", put on the ellipsoid with the geoid separation given", false)
        default:
            return (
                text + ", taken as on the ellipsoid: off by the geoid separation, tens of metres; "
                    + (GeoidGrid.unavailableReason ?? "or give the geoid separation"), true
            )
        }
    }
}
