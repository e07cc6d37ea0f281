import Testing

@testable import Positioning

@Suite("compass degrees")
struct CompassDegreesTests {
    @Test(
        "any angle folds into 0 ..< 360",
        arguments: [
            (0.0, 0.0), (359.5, 359.5), (360, 0), (370, 10), (-10, 350), (-370, 350), (725, 5), (-1e-15, 0),
            (-360, 0),
        ])
    func wrapped(degrees: Double, expected: Double) {
        let value = CompassDegrees.wrapped(degrees)
        #expect(abs(value - expected) < 1e-9, "\(degrees)° → \(value)°")
        #expect(value >= 0 && value < 360)
    }
}
