/// The sentences of one receiver epoch (one time of day), merged: GGA gives the altitude and fix
/// quality, RMC the date, course and speed, GSA the mode and dilution, GST the error estimates, VTG
/// course and speed, HDT/THS/HDG/HDM the heading.
struct NMEAEpoch: Sendable {
    var timeOfDay: Double
    var firstLine: Int?
    var receivedMonotonicNanoseconds: Int64?
    var day: Int?
    var latitude: Double?
    var longitude: Double?
    /// False as soon as one sentence says the position is invalid (GGA quality 0, RMC status V).
    var positionValid: Bool?
    var altitudeMeanSeaLevel: Double?
    var geoidSeparation: Double?
    var ggaQuality: Int?
    var gsaMode: Int?
    var horizontalDilution: Double?
    var verticalDilution: Double?
    var course: Double?
    var speedMetresPerSecond: Double?
    var sigmaLatitude: Double?
    var sigmaLongitude: Double?
    var sigmaAltitude: Double?
    /// Headings as received: a `magnetic` one is made true when the epoch is delivered.
    var headings: [(heading: Double, origin: OrientationSample.Origin, magnetic: Bool)] = []

    /// Metres of range error assumed per unit of dilution of precision when a receiver sends no GST:
    /// a typical single-frequency figure, so `accuracy = DOP × 5 m` is an estimate, not a measurement.
    static let assumedRangeError = 5.0

    mutating func setPosition(latitude: Double, longitude: Double, valid: Bool) {
        self.latitude = latitude
        self.longitude = longitude
        markValidity(valid)
    }

    mutating func markValidity(_ valid: Bool) {
        positionValid = (positionValid ?? true) && valid
    }

    /// The fix mode the epoch's sentences agree on.
    var mode: FixMode {
        guard positionValid == true, latitude != nil, longitude != nil else { return .noFix }
        // GSA's mode refines 2D or 3D; it does not overrule a position GGA or RMC declared valid
        // (receivers send GSA at their own pace, and a late one may belong to the next epoch).
        if let gsaMode, gsaMode >= 2, let mode = FixMode(rawValue: gsaMode) { return mode }
        return altitudeMeanSeaLevel == nil ? .twoD : .threeD
    }
}
