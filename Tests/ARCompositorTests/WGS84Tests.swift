import Testing

@testable import ARCompositor

@Suite("WGS84 constants")
struct WGS84Tests {
    /// Published derived values (NIMA TR8350.2, table 3.3), not recomputed from the code under test.
    @Test("derived constants match the published ones")
    func derived() {
        #expect(abs(WGS84.eccentricitySquared - 0.006_694_379_990_14) < 5e-15)  // published to 14 decimals
        #expect(abs(WGS84.semiMinorAxis - 6_356_752.3142) < 5e-5)  // published to 0.1 mm
    }
}

@Suite("Geoid separation")
struct GeoidSeparationTests {
    /// NMEA GGA from a receiver in Helsinki: 12.0 m above mean sea level, geoid separation 17.9 m.
    @Test("ellipsoidal altitude is MSL plus the separation, and back")
    func conversion() {
        #expect(abs(GeoidSeparation.ellipsoidalAltitude(meanSeaLevel: 12.0, separation: 17.9) - 29.9) < 1e-12)
        #expect(abs(GeoidSeparation.meanSeaLevelAltitude(ellipsoidal: 29.9, separation: 17.9) - 12.0) < 1e-12)
        #expect(
            GeoidSeparation.ellipsoidalAltitude(meanSeaLevel: 5, separation: -30) == -25, "negative separations exist")
    }
}
