import Foundation

/// A magnetometer's hard- and soft-iron correction: `corrected = (reading − offset) × scale`, per
/// axis, in the sensor's own axes and units.
///
/// Hard iron (magnets and steel near the sensor) shifts every reading by a constant; soft iron and
/// unequal axis gains stretch the sphere of readings into an ellipsoid. The calibration step,
/// ``fit(_:)`` over readings recorded while the camera is turned slowly through every orientation,
/// centres and rounds the cloud: offset = the middle of each axis's range, scale = the mean
/// half-range over the axis's half-range.
public struct IMUCalibration: Hashable, Sendable, Codable {
    /// Subtracted from each axis.
    public var offset: SIMD3<Double>
    /// Multiplied into each axis after the offset.
    public var scale: SIMD3<Double>
    /// The heading error in degrees this calibration leaves (from the spread of the corrected field
    /// strength), or nil when uncalibrated.
    public var headingAccuracy: Double?

    /// No correction; heading accuracy unknown (treated as poor: see ``IIOPoseSource``).
    public static let none = IMUCalibration(offset: .zero, scale: SIMD3(1, 1, 1), headingAccuracy: nil)

    /// Creates a calibration.
    public init(offset: SIMD3<Double>, scale: SIMD3<Double>, headingAccuracy: Double?) {
        self.offset = offset
        self.scale = scale
        self.headingAccuracy = headingAccuracy
    }

    /// Applies the correction.
    public func correct(_ reading: SIMD3<Double>) -> SIMD3<Double> { (reading - offset) * scale }

    /// Fits a calibration to readings taken while turning the sensor through every orientation.
    ///
    /// - Returns: nil with fewer than 50 readings or when an axis barely changed (the sensor was
    ///   not turned enough to see the whole sphere).
    public static func fit(_ readings: [SIMD3<Double>]) -> IMUCalibration? {
        guard readings.count >= 50, var low = readings.first, var high = readings.first else { return nil }
        for reading in readings {
            low = pointwiseMin(low, reading)
            high = pointwiseMax(high, reading)
        }
        let halfRange = (high - low) / 2
        guard halfRange.min() > 0, halfRange.min() > halfRange.max() * 0.3 else { return nil }
        let offset = (high + low) / 2
        let mean = halfRange.sum() / 3
        let scale = SIMD3(mean / halfRange.x, mean / halfRange.y, mean / halfRange.z)
        // What is left: the spread of the corrected field strength, as an angle.
        let strengths = readings.map { reading -> Double in
            let corrected = (reading - offset) * scale
            return (corrected * corrected).sum().squareRoot()
        }
        let average = strengths.reduce(0, +) / Double(strengths.count)
        let variance = strengths.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(strengths.count)
        let accuracy = max(1, atan(variance.squareRoot() / average) * 180 / .pi)
        return IMUCalibration(offset: offset, scale: scale, headingAccuracy: accuracy)
    }
}
