import Foundation
import Testing

@testable import ARCompositor
@testable import Positioning

/// The course's headings with a camera's own attitude, and what becomes of the mount.
@Suite("course orientation with a measured attitude")
struct CourseOrientationTests {
    /// A track heading east at 5 m/s for 10 s, with or without attitudes every second.
    static func track(attitudes: Bool) throws -> RecordedTrack {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let fixes = try (0...10).map { second in
            LocationFix(
                time: start.addingTimeInterval(Double(second)),
                coordinate: try #require(
                    GeodeticCoordinate(latitude: 60, longitude: 25 + Double(second) * 5 / 55_600, altitude: 0)),
                mode: .threeD, horizontalAccuracy: 3, speed: 5)
        }
        let measured = (0...10).map {
            CameraAttitude(time: start.addingTimeInterval(Double($0)), pitch: -8, roll: Double($0))
        }
        return RecordedTrack(file: "ride.mp4", fixes: fixes, attitudes: attitudes ? measured : [])
    }

    static func samples(_ input: OrientationInput) -> [OrientationSample] {
        if case .samples(let samples) = input { return samples }
        return []
    }

    @Test("without attitudes: the course as it was, the mount kept for the timeline")
    func courseAlone() throws {
        let mount = CameraMount(yaw: 180, pitch: -10)
        let course = CourseOrientation(track: try Self.track(attitudes: false), mount: mount)
        #expect(course.mount == mount)
        #expect(course.note == nil)
        let samples = Self.samples(course.input)
        #expect(!samples.isEmpty && samples.allSatisfy { $0.pitch == nil && abs($0.heading - 90) < 1 })
    }

    @Test(
        "with attitudes: the mount's yaw turns the heading, pitch and roll are the camera's, the mount's pitch is left out and said"
    )
    func withAttitude() throws {
        let course = CourseOrientation(track: try Self.track(attitudes: true), mount: CameraMount(yaw: 180, pitch: -10))
        #expect(course.mount == CameraMount())
        #expect(course.note?.contains("ride.mp4 gives the camera's own pitch and roll") == true)
        let samples = Self.samples(course.input)
        #expect(!samples.isEmpty)
        for sample in samples {
            #expect(abs(sample.heading - 270) < 1, "east turned round")
            #expect(sample.pitch == -8)
            let second = sample.time.timeIntervalSince1970 - 1_700_000_000
            #expect(abs((sample.roll ?? -1) - second) < 1e-6)
        }
        let yawOnly = CourseOrientation(track: try Self.track(attitudes: true), mount: CameraMount(yaw: 180))
        #expect(yawOnly.note == nil)
    }
}
