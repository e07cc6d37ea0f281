import Foundation

/// A fix flattened for matching two tracks: seconds from a common epoch and metres east and
/// north of a common origin.
///
/// Flattened equirectangularly (east scaled by the cosine of the origin's latitude): within
/// tens of kilometres of the origin distances are off by well under 1 %, which moves no minimum
/// of a matching cost; farther points are farther than the cost's cap anyway.
struct PlanarSample: Sendable {
    /// Seconds from the matcher's epoch.
    var time: Double
    /// Metres east of the origin.
    var east: Double
    /// Metres north of the origin.
    var north: Double

    /// Metres per degree of latitude (on a sphere of the Earth's mean radius, 6,371,008.8 m).
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    init(time: Double, east: Double, north: Double) {
        self.time = time
        self.east = east
        self.north = north
    }

    /// `fix` flattened about `origin` (latitude, longitude in degrees), timed from `epoch`.
    init(_ fix: LocationFix, origin: (latitude: Double, longitude: Double), epoch: Date) {
        var longitude = fix.coordinate.longitude - origin.longitude
        // Across the antimeridian the short way round.
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        time = fix.time.timeIntervalSince(epoch)
        east = longitude * Self.metresPerDegree * cos(origin.latitude * .pi / 180)
        north = (fix.coordinate.latitude - origin.latitude) * Self.metresPerDegree
    }

    /// The horizontal distance to `other`, in metres.
    func distance(to other: PlanarSample) -> Double {
        ((east - other.east) * (east - other.east) + (north - other.north) * (north - other.north)).squareRoot()
    }
}
