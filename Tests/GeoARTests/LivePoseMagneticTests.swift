import ARCompositor
import Foundation
import Positioning
import Testing

@testable import GeoAR

/// An IMU's magnetic heading is made true where the camera is, by the World Magnetic Model, before
/// any frame uses it; without a position it is not used.
@Suite("Live poses from a magnetometer")
struct LivePoseMagneticTests {
    /// A 1 Hz fix in Helsinki on 2026-12-05, arriving at `second` s of the monotonic clock.
    private func fix(_ second: Int64) throws -> LocationFix {
        let coordinate = try #require(GeodeticCoordinate(latitude: 60.1699, longitude: 24.9384, altitude: 20))
        return LocationFix(
            time: Date(timeIntervalSince1970: 1_796_472_000 + Double(second)), coordinate: coordinate, mode: .threeD,
            receivedMonotonicNanoseconds: second * 1_000_000_000)
    }

    /// A magnetic heading of 50° from the IMU, arriving at `nanoseconds`.
    private func magnetic(_ nanoseconds: Int64) -> OrientationSample {
        OrientationSample(
            time: Date(), heading: 50, pitch: 0, roll: 0, headingAccuracy: 15, origin: .imu,
            receivedMonotonicNanoseconds: nanoseconds, headingIsMagnetic: true)
    }

    @Test("the heading is the magnetic one plus the declination at the fix; none before a fix")
    func declinationApplied() throws {
        let tracker = LivePoseTracker()
        tracker.receive(.orientation(magnetic(500_000_000)))  // before any fix: not used
        #expect(tracker.magneticHeadingsUnused == 1)
        tracker.receive(.fix(try fix(1)))
        tracker.receive(.orientation(magnetic(1_100_000_000)))
        tracker.receive(.orientation(magnetic(1_900_000_000)))
        tracker.receive(.fix(try fix(2)))
        // WMM2025 at 60.1699 N 24.9384 E, 20 m, 2026-12-05: 10.5° E (pygeomag 1.1.0 gives 10.4950°
        // for 2026.9 at sea level).
        let declination = try #require(try tracker.declination?.get())
        #expect(declination.model == "WMM2025")
        #expect(abs(declination.degrees - 10.495) < 0.01, "\(declination.degrees)")
        let pose = try tracker.pose(atMonotonicNanoseconds: 1_500_000_000).get()
        #expect(abs(pose.estimate.pose.orientation.heading - (50 + declination.degrees)) < 1e-6)
        #expect(tracker.magneticHeadingsUnused == 1)
    }

    @Test("a fix dated before every built-in model: the magnetic heading is not used, and why is said")
    func noModel() throws {
        let tracker = LivePoseTracker()
        let coordinate = try #require(GeodeticCoordinate(latitude: 60.1699, longitude: 24.9384))
        // A board without a real-time clock and a fixed position: 1970.
        tracker.receive(
            .fix(
                LocationFix(
                    time: Date(timeIntervalSince1970: 1), coordinate: coordinate, mode: .twoD,
                    receivedMonotonicNanoseconds: 1_000_000_000)))
        tracker.receive(.orientation(magnetic(1_100_000_000)))
        #expect(tracker.magneticHeadingsUnused == 1)
        if case .failure(let why) = tracker.declination {
            #expect(why.description.hasPrefix("no World Magnetic Model covers 1970-01-01"))
        } else {
            Issue.record("expected no declination, got \(String(describing: tracker.declination))")
        }
    }
}
