import JPEGKit
import Positioning

extension Geotag {
    /// The camera's height on the ellipsoid, from the photo's GPS altitude (above sea level, as
    /// EXIF defines it; sea level when the photo has none) plus the geoid separation:
    /// `assumedGeoidSeparation` when given (`--geoid-separation`), else EGM96's at the photo
    /// (Positioning's `GeoidGrid`). One rule for a folder of photos and a single one.
    public func ellipsoidalAltitude(assumingGeoidSeparation assumedGeoidSeparation: Double? = nil) -> (
        altitude: Double, reference: AltitudeReference
    ) {
        LocationFix.ellipsoidal(
            seaLevel: altitudeMeanSeaLevel ?? 0, latitude: latitude, longitude: longitude,
            assumingGeoidSeparation: assumedGeoidSeparation)
    }
}
