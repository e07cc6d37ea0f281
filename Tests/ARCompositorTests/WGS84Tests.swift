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
