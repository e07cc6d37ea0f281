import Foundation
import TestSupport
import Testing

@testable import Positioning

@Suite("Heading from course over ground")
struct CourseHeadingEstimatorTests {
    private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    private func fix(_ seconds: Double, course: Double?, speed: Double?, latitude: Double = 45, longitude: Double = 14)
        throws -> LocationFix
    {
        LocationFix(
            time: t0.addingTimeInterval(seconds),
            coordinate: try #require(GeodeticCoordinate(latitude: latitude, longitude: longitude)), mode: .twoD,
            course: course, speed: speed)
    }

    private func angle(_ a: Double, _ b: Double) -> Double {
        let d = abs((a - b).truncatingRemainder(dividingBy: 360))
        return min(d, 360 - d)
    }

    @Test("smoothing averages directions, not numbers: 359° then 1° gives about 0°, never 180°")
    func wrapAround() throws {
        var estimator = CourseHeadingEstimator(options: CourseHeadingOptions(smoothingTime: 1))
        _ = estimator.update(with: try fix(0, course: 359, speed: 10))
        let sample = try #require(estimator.update(with: try fix(1, course: 1, speed: 10)))
        // Unit vectors (sin, cos): start at 359°, move a fraction 1 − e⁻¹ ≈ 0.632 towards 1°.
        let alpha = 1 - exp(-1.0)
        let east = sin(-1 * Double.pi / 180) + alpha * (sin(Double.pi / 180) - sin(-1 * Double.pi / 180))
        let expected = atan2(east, cos(Double.pi / 180)) * 180 / .pi
        #expect(angle(sample.heading, expected) < 1e-9)
        #expect(angle(sample.heading, 0) < 0.3)
    }

    @Test("below the minimum speed the heading holds; before any movement there is none")
    func holdsWhenSlow() throws {
        var estimator = CourseHeadingEstimator(options: CourseHeadingOptions(minimumSpeed: 1, smoothingTime: 0))
        #expect(estimator.update(with: try fix(0, course: 123, speed: 0.2)) == nil)
        #expect(estimator.update(with: try fix(1, course: 80, speed: 5))?.heading == 80)
        let held = try #require(estimator.update(with: try fix(2, course: 250, speed: 0.3)))
        #expect(abs(held.heading - 80) < 1e-9)
        #expect(held.time == t0.addingTimeInterval(2))
    }

    @Test("accuracy is atan(speed error / speed)")
    func accuracy() throws {
        var estimator = CourseHeadingEstimator(options: CourseHeadingOptions(smoothingTime: 0, speedError: 2))
        let sample = try #require(estimator.update(with: try fix(0, course: 10, speed: 2)))
        #expect(abs((sample.headingAccuracy ?? 0) - 45) < 1e-9)
    }

    @Test("without a course field (GPX) the course is the bearing between neighbouring fixes")
    func bearingFromPositions() throws {
        // Due east along a parallel: 0.001° of longitude at 45° N is about 78.8 m.
        let fixes = try (0..<5).map { try fix(Double($0), course: nil, speed: nil, longitude: 14 + 0.001 * Double($0)) }
        let samples = CourseHeadingEstimator.samples(for: fixes)
        #expect(samples.count == 5)
        #expect(samples.allSatisfy { angle($0.heading, 90) < 0.01 })
        // And due north.
        let north = try (0..<3).map {
            try fix(Double($0) * 2, course: nil, speed: nil, latitude: 45 + 0.0001 * Double($0))
        }
        #expect(CourseHeadingEstimator.samples(for: north).allSatisfy { angle($0.heading, 0) < 0.01 })
    }

    @Test("a recorded track is smoothed without lag: a steady turn is centred, not late")
    func noLag() throws {
        // Course rises 10° per second; forward-backward smoothing keeps the middle sample on time.
        let fixes = try (0...20).map { try fix(Double($0), course: Double($0) * 10, speed: 10) }
        let samples = CourseHeadingEstimator.samples(for: fixes, options: CourseHeadingOptions(smoothingTime: 2))
        let middle = samples[10]
        #expect(angle(middle.heading, 100) < 1)
        var live = CourseHeadingEstimator(options: CourseHeadingOptions(smoothingTime: 2))
        var lastLive: OrientationSample?
        for fix in fixes.prefix(11) { lastLive = live.update(with: fix) }
        // The causal filter lags behind the turn by about the time constant.
        #expect(angle(try #require(lastLive).heading, 100) > 10)
    }

    @Test("the boat log's courses give headings within its course range")
    func realLog() throws {
        let track = try NMEALog.load(PackagePaths.sample("nmea/bundg_zeus_9.log"))
        let samples = CourseHeadingEstimator.samples(for: track.fixes)
        #expect(samples.count == track.fixes.count)
        #expect(samples.allSatisfy { (222.3...247.9).contains($0.heading) })
    }
}
