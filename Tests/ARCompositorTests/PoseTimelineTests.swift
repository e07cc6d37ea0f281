import Foundation
import TestSupport
import Testing

@testable import ARCompositor
@testable import Positioning

/// Interpolation at frame time against hand-computed cases.
@Suite("Pose at frame time")
struct PoseTimelineTests {
    private let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    private func fix(_ seconds: Double, _ latitude: Double, _ longitude: Double, altitude: Double? = 0) throws
        -> LocationFix
    {
        LocationFix(
            time: t0.addingTimeInterval(seconds),
            coordinate: try #require(GeodeticCoordinate(latitude: latitude, longitude: longitude, altitude: altitude)),
            mode: altitude == nil ? .twoD : .threeD, horizontalAccuracy: 2)
    }

    private func heading(_ seconds: Double, _ degrees: Double, accuracy: Double? = nil) -> OrientationSample {
        OrientationSample(
            time: t0.addingTimeInterval(seconds), heading: degrees, headingAccuracy: accuracy, origin: .course)
    }

    private func level(_ heading: Double) -> OrientationInput {
        .fixed(DeviceOrientation(heading: heading, pitch: 0, roll: 0), headingAccuracy: nil)
    }

    /// The smaller angle between two headings, in degrees.
    private func angle(_ a: Double, _ b: Double) -> Double {
        let d = abs((a - b).truncatingRemainder(dividingBy: 360))
        return min(d, 360 - d)
    }

    @Test("positions interpolate linearly: a quarter of the way on the equator is a quarter of the longitude")
    func linearPosition() throws {
        let timeline = PoseTimeline(positions: [try fix(0, 0, 0), try fix(1, 0, 0.001)], orientation: level(90))
        let estimate = try #require(timeline.pose(at: t0.addingTimeInterval(0.25)).estimate)
        // The chord between the fixes dips s²/8R ≈ 0.24 mm below the ellipsoid; the longitude is exact
        // at the midpoint by symmetry and within 1e-9° a quarter of the way.
        #expect(abs(estimate.pose.longitude - 0.00025) < 1e-9)
        #expect(abs(estimate.pose.latitude) < 1e-12)
        #expect(abs(estimate.pose.altitude) < 0.001)
        #expect(estimate.extrapolation == 0)
        #expect(estimate.horizontalAccuracy == 2)
        let middle = try #require(timeline.pose(at: t0.addingTimeInterval(0.5)).estimate)
        #expect(abs(middle.pose.longitude - 0.0005) < 1e-12)
    }

    @Test("at a sample's own time the pose is that sample")
    func exactSample() throws {
        let timeline = PoseTimeline(
            positions: [try fix(0, 60, 25, altitude: 30), try fix(2, 60.001, 25, altitude: 32)], orientation: level(0))
        let estimate = try #require(timeline.pose(at: t0.addingTimeInterval(2)).estimate)
        #expect(abs(estimate.pose.latitude - 60.001) < 1e-12)
        #expect(abs(estimate.pose.altitude - 32) < 1e-6)
    }

    @Test("a gap longer than the limit is no pose, not a guess")
    func gap() throws {
        let timeline = PoseTimeline(positions: [try fix(0, 0, 0), try fix(40, 0, 0.001)], orientation: level(0))
        #expect(timeline.pose(at: t0.addingTimeInterval(4)) == .noPose(.positionGap(seconds: 40)))
        #expect(NoPoseReason.positionGap(seconds: 40).description == "in a 40.0 s gap between positions")
        // A frame exactly at the fix before the gap is that fix.
        #expect(timeline.pose(at: t0).estimate?.pose.longitude == 0)
        // A logger's 20 s step on a steady course is followed (the default limit is 30 s).
        let logger = PoseTimeline(positions: [try fix(0, 0, 0), try fix(20, 0, 0.002)], orientation: level(0))
        #expect(abs((logger.pose(at: t0.addingTimeInterval(5)).estimate?.pose.longitude ?? 0) - 0.0005) < 1e-9)
    }

    @Test("extrapolation is bounded and reported; it continues at the last velocity")
    func extrapolation() throws {
        let timeline = PoseTimeline(positions: [try fix(0, 0, 0), try fix(1, 0, 0.001)], orientation: level(0))
        let ahead = try #require(timeline.pose(at: t0.addingTimeInterval(1.5)).estimate)
        #expect(ahead.extrapolation == 0.5)
        #expect(abs(ahead.pose.longitude - 0.0015) < 1e-9)
        let behind = try #require(timeline.pose(at: t0.addingTimeInterval(-0.5)).estimate)
        #expect(abs(behind.pose.longitude - -0.0005) < 1e-9)
        #expect(timeline.pose(at: t0.addingTimeInterval(3)) == .noPose(.afterTrack(seconds: 2)))
        #expect(timeline.pose(at: t0.addingTimeInterval(-2)) == .noPose(.beforeTrack(seconds: 2)))
        #expect(PoseTimeline(positions: [], orientation: level(0)).pose(at: t0) == .noPose(.noPositions))
    }

    @Test("heading wraps along the short arc: 359° to 1° passes through 0°")
    func headingWrap() throws {
        let timeline = PoseTimeline(
            positions: [try fix(0, 0, 0), try fix(1, 0, 0)],
            orientation: .samples([heading(0, 359, accuracy: 3), heading(1, 1, accuracy: 5)]))
        let middle = try #require(timeline.pose(at: t0.addingTimeInterval(0.5)).estimate)
        #expect(angle(middle.pose.orientation.heading, 0) < 1e-9)
        #expect(abs(middle.pose.orientation.pitch) < 1e-9 && abs(middle.pose.orientation.roll) < 1e-9)
        #expect(middle.headingAccuracy == 5)
        let quarter = try #require(timeline.pose(at: t0.addingTimeInterval(0.25)).estimate)
        #expect(angle(quarter.pose.orientation.heading, 359.5) < 1e-9)
        // And the other way round: 10° to 350° passes through 0° as well.
        let back = PoseTimeline(
            positions: [try fix(0, 0, 0), try fix(1, 0, 0)], orientation: .samples([heading(0, 10), heading(1, 350)]))
        #expect(
            angle(try #require(back.pose(at: t0.addingTimeInterval(0.75)).estimate).pose.orientation.heading, 355)
                < 1e-9)
    }

    @Test("orientations interpolate with pitch and roll too (slerp between two attitudes)")
    func attitudeSlerp() throws {
        let samples = [
            OrientationSample(time: t0, heading: 0, pitch: 0, roll: 0, origin: .inertial),
            OrientationSample(time: t0.addingTimeInterval(1), heading: 0, pitch: 20, roll: 0, origin: .inertial),
        ]
        let timeline = PoseTimeline(positions: [try fix(0, 0, 0), try fix(1, 0, 0)], orientation: .samples(samples))
        // A rotation about one axis interpolates uniformly: halfway is 10° of pitch.
        let middle = try #require(timeline.pose(at: t0.addingTimeInterval(0.5)).estimate)
        #expect(abs(middle.pose.orientation.pitch - 10) < 1e-9)
        #expect(timeline.pose(at: t0.addingTimeInterval(5)) == .noPose(.afterTrack(seconds: 4)))
    }

    @Test("an orientation gap or no orientation near the frame is no pose")
    func orientationGap() throws {
        let positions = [try fix(0, 0, 0), try fix(4, 0, 0), try fix(8, 0, 0), try fix(12, 0, 0)]
        let timeline = PoseTimeline(
            positions: positions, orientation: .samples([heading(0, 10), heading(12, 20)]),
            limits: InterpolationLimits(maximumGap: 5))
        #expect(timeline.pose(at: t0.addingTimeInterval(6)) == .noPose(.orientationGap(seconds: 12)))
        let none = PoseTimeline(positions: positions, orientation: .samples([]))
        #expect(none.pose(at: t0) == .noPose(.noOrientation))
    }

    @Test("a camera facing backwards (mount yaw 180) looks opposite the direction of travel")
    func backwards() throws {
        let timeline = PoseTimeline(
            positions: [try fix(0, 0, 0)], orientation: .samples([heading(0, 270)]), mount: CameraMount(yaw: 180))
        // 270 + 180 wraps to 90, in [0, 360).
        #expect(abs(try #require(timeline.pose(at: t0).estimate).pose.orientation.heading - 90) < 1e-9)
    }

    @Test("a mount yaw on a pitched body composes as rotations")
    func mountOnPitchedBody() throws {
        // Body facing north, nose up 10°; camera turned 90° right on it. Its axis is the body's right
        // axis: east and level. Its right axis is the body's backward axis, which points south and
        // 10° down, so the camera is rolled +10° (right side down).
        let camera = CameraMount(yaw: 90).cameraOrientation(body: DeviceOrientation(heading: 0, pitch: 10, roll: 0))
        #expect(abs(camera.heading - 90) < 1e-9)
        #expect(abs(camera.pitch) < 1e-9)
        #expect(abs(camera.roll - 10) < 1e-9)
    }

    @Test("heading accuracy fades markers between the thresholds")
    func fading() throws {
        let policy = HeadingAccuracyPolicy(fadeFrom: 10, hideFrom: 30)
        #expect(policy.opacity(headingAccuracy: nil) == 1)
        #expect(policy.opacity(headingAccuracy: 5) == 1)
        #expect(policy.opacity(headingAccuracy: 20) == 0.5)
        #expect(policy.opacity(headingAccuracy: 45) == 0)
    }

    @Test(
        "altitudes above sea level go on the ellipsoid: the fix's own separation, else the one given, else EGM96's; 2D fixes are approximate"
    )
    func approximateAltitude() throws {
        let msl = LocationFix(
            time: t0, coordinate: try #require(GeodeticCoordinate(latitude: 45, longitude: 14)), mode: .threeD,
            altitudeMeanSeaLevel: 500)
        let separation = try GeoidGrid.shared.get().separation(latitude: 45, longitude: 14)
        #expect(separation > 40 && separation < 50)
        let modelled = try #require(PoseTimeline(positions: [msl], orientation: level(0)).pose(at: t0).estimate)
        #expect(!modelled.altitudeIsApproximate && abs(modelled.pose.altitude - 500 - separation) < 1e-6)
        var own = msl
        own.geoidSeparation = 44
        let receivers = try #require(PoseTimeline(positions: [own], orientation: level(0)).pose(at: t0).estimate)
        #expect(!receivers.altitudeIsApproximate && abs(receivers.pose.altitude - 544) < 1e-6)
        let given = try #require(
            PoseTimeline(positions: [msl], orientation: level(0), assumedGeoidSeparation: 46).pose(at: t0).estimate)
        #expect(!given.altitudeIsApproximate && abs(given.pose.altitude - 546) < 1e-6)
        let flat = try #require(
            PoseTimeline(positions: [try fix(0, 0, 0, altitude: nil)], orientation: level(0)).pose(at: t0).estimate)
        #expect(flat.altitudeIsApproximate)
    }

    @Test("live use: a re-sent fix replaces the earlier one; old samples are discarded")
    func liveUse() throws {
        var timeline = PoseTimeline(positions: [try fix(0, 0, 0)], orientation: level(0))
        timeline.insert(try fix(1, 0, 0.001))
        timeline.insert(try fix(1, 0, 0.002))
        timeline.insert(try fix(2, 0, 0.003))
        #expect(timeline.positions.count == 3)
        #expect(abs(try #require(timeline.pose(at: t0.addingTimeInterval(1)).estimate).pose.longitude - 0.002) < 1e-12)
        timeline.discard(before: t0.addingTimeInterval(1.5))
        #expect(timeline.positions.map(\.time) == [t0.addingTimeInterval(1), t0.addingTimeInterval(2)])
    }

    @Test("a real GPX drive: every point is met exactly and frames between points stay between them")
    func realTrack() throws {
        let track = try RecordedTrack.load(PackagePaths.sample("gpx/around-visnjan-with-car.gpx"))
        let timeline = PoseTimeline(positions: track.fixes, orientation: level(0), assumedGeoidSeparation: 46)
        for (a, b) in zip(track.fixes, track.fixes.dropFirst()) where b.time.timeIntervalSince(a.time) <= 5 {
            let atA = try #require(timeline.pose(at: a.time).estimate)
            #expect(abs(atA.pose.latitude - a.coordinate.latitude) < 1e-9)
            let mid = try #require(
                timeline.pose(at: a.time.addingTimeInterval(b.time.timeIntervalSince(a.time) / 2)).estimate)
            #expect(abs(mid.pose.latitude - (a.coordinate.latitude + b.coordinate.latitude) / 2) < 1e-8)
            #expect(abs(mid.pose.longitude - (a.coordinate.longitude + b.coordinate.longitude) / 2) < 1e-8)
        }
    }
}
