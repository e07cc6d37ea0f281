import Foundation
import Testing

@testable import Positioning

/// A camera's own turns (GoPro's CORI) read as changes of heading, and anchored to north by the
/// course: synthetic orientations built from the geometry (a turn about the body's down axis),
/// not from the reader's formulas. The real clip is checked against its picture's motion in
/// AnnotateVideoOutputTests.
@Suite("camera turns anchored by the course")
struct CameraTurnHeadingTests {
    static let start = Date(timeIntervalSince1970: 1_600_000_000)

    /// CORI for a body turned `degrees` right (clockwise seen from above) of where it started,
    /// upright: the start's frame is the body's turned back, so the body's forward axis z is
    /// (sin θ, 0, cos θ) in the start's frame (x right, y down): q⁻¹ = (cos θ/2, 0, sin θ/2, 0).
    static func orientation(turnedRight degrees: Double) -> [Double] {
        let half = degrees * .pi / 360
        return [cos(half), 0, -sin(half), 0]
    }

    @Test("turns to the right count up, past 180° and a full turn without wrapping")
    func turnsUnwrapped() throws {
        let turns = [0.0, 45, 90, 170, 190, 270, 359, 361, 450]
        let yaws = CameraTurns.yaws(
            gravity: turns.map { _ in [0, 1, 0] }, imageOrientation: turns.map { _ in nil },
            cameraOrientation: turns.map { Self.orientation(turnedRight: $0) })
        for (yaw, turn) in zip(yaws, turns) {
            #expect(abs(try #require(yaw) - turn) < 1e-9, "\(turn)°")
        }
    }

    @Test("a camera tilted down still turns about the vertical, and looking straight down has no turn")
    func tilted() throws {
        // Pitched 30° down: gravity in the body's frame leans towards z; the start's frame is
        // the same tilted body, then turned 40° right about the vertical.
        let pitch = -30.0 * .pi / 180
        let tilt = [cos(pitch / 2), sin(pitch / 2), 0, 0]  // about x
        let gravity = [0, cos(pitch), -sin(pitch)]
        func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
            [
                a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
                a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
                a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
                a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
            ]
        }
        // body → start: undo the tilt, turn about down, tilt again (the start was tilted too).
        func turned(_ degrees: Double) -> [Double] {
            let inverseTurn = [cos(degrees * .pi / 360), 0, sin(degrees * .pi / 360), 0]
            let inverseTilt = [tilt[0], -tilt[1], -tilt[2], -tilt[3]]
            let bodyToStart = multiply(multiply(inverseTilt, inverseTurn), tilt)
            return [bodyToStart[0], -bodyToStart[1], -bodyToStart[2], -bodyToStart[3]]
        }
        let yaws = CameraTurns.yaws(
            gravity: [gravity, gravity], imageOrientation: [nil, nil], cameraOrientation: [turned(0), turned(40)])
        #expect(abs(try #require(yaws[1]) - 40) < 1e-6)
        let down = CameraTurns.yaws(
            gravity: [[0, 0, 1], [0, 0, 1]], imageOrientation: [nil, nil],
            cameraOrientation: [[1, 0, 0, 0], [1, 0, 0, 0]])
        #expect(down == [nil, nil])
    }

    /// Fixes every 0.1 s going `course` at `speed` m/s from Lund, for `seconds`.
    static func fixes(course: Double, speed: Double, seconds: Double) throws -> [LocationFix] {
        try stride(from: 0.0, through: seconds, by: 0.1).map { time in
            let metres = speed * time
            let north = metres * cos(course * .pi / 180) / 111_320
            let east = metres * sin(course * .pi / 180) / (111_320 * cos(55.7 * .pi / 180))
            let coordinate = try #require(GeodeticCoordinate(latitude: 55.7 + north, longitude: 13.2 + east))
            return LocationFix(time: start.addingTimeInterval(time), coordinate: coordinate, mode: .threeD)
        }
    }

    @Test("a look to the side while walking straight: the heading turns with the camera, anchored by the course")
    func lookAside() throws {
        // Walking 120° at 1.5 m/s for 60 s; the camera starts pointing 30° left of where the
        // recording's zero is (its turn −30 means the walk's direction is at +30 there), looks
        // 60° right between 20 s and 25 s.
        let fixes = try Self.fixes(course: 120, speed: 1.5, seconds: 60)
        let attitudes = stride(from: 0.0, through: 60, by: 1.0 / 30).map { time in
            CameraAttitude(
                time: Self.start.addingTimeInterval(time), pitch: -5, roll: 1,
                yaw: 30 + (time >= 20 && time < 25 ? 60 : 0))
        }
        let samples = try #require(CameraTurnHeading.samples(attitudes: attitudes, fixes: fixes))
        #expect(samples.count == attitudes.count)
        for sample in samples {
            let time = sample.time.timeIntervalSince(Self.start)
            let looking = time >= 20 && time < 25
            // The look aside is a sixth of its window: it pulls the anchor by at most that much.
            let expected = 120 + (looking ? 60.0 : 0)
            #expect(abs(sample.heading - expected) < 11, "at \(time) s: \(sample.heading)°")
            #expect(sample.origin == .cameraTurns && sample.pitch == -5 && sample.roll == 1)
        }
        // Far from the look, the anchor is the course itself.
        let late = try #require(samples.first { $0.time.timeIntervalSince(Self.start) >= 50 })
        #expect(abs(late.heading - 120) < 0.5, "\(late.heading)°")
        #expect(abs((late.headingAccuracy ?? 0) - 1) < 1e-6, "turns and course agree exactly")
    }

    @Test("a long stop after the last moving fix: the camera's turns still turn the heading, from the last window")
    func stopped() throws {
        // 10 s walking 200°, then 90 s standing where the walk ended, turning 90° right at 50 s.
        var fixes = try Self.fixes(course: 200, speed: 1.5, seconds: 10)
        let end = try #require(fixes.last)
        for step in 1...900 {
            fixes.append(
                LocationFix(
                    time: end.time.addingTimeInterval(Double(step) / 10), coordinate: end.coordinate, mode: .threeD))
        }
        let attitudes = stride(from: 0.0, through: 100, by: 1.0 / 30).map { time in
            CameraAttitude(time: Self.start.addingTimeInterval(time), pitch: 0, roll: 0, yaw: time >= 50 ? 100 : 10)
        }
        let samples = try #require(CameraTurnHeading.samples(attitudes: attitudes, fixes: fixes))
        for sample in samples {
            let time = sample.time.timeIntervalSince(Self.start)
            #expect(abs(sample.heading - (time >= 50 ? 290 : 200)) < 0.5, "at \(time) s: \(sample.heading)°")
        }
    }

    @Test("a mount facing backwards, no moving fix, fewer than two turns")
    func edges() throws {
        let fixes = try Self.fixes(course: 10, speed: 2, seconds: 10)
        let attitudes = stride(from: 0.0, through: 10, by: 0.5).map {
            CameraAttitude(time: Self.start.addingTimeInterval($0), pitch: 0, roll: 0, yaw: -5)
        }
        let backwards = try #require(CameraTurnHeading.samples(attitudes: attitudes, fixes: fixes, mountYaw: 180))
        #expect(backwards.allSatisfy { abs($0.heading - 190) < 0.5 })
        let parked = try Self.fixes(course: 10, speed: 0, seconds: 10)
        #expect(CameraTurnHeading.samples(attitudes: attitudes, fixes: parked) == nil)
        #expect(CameraTurnHeading.samples(attitudes: Array(attitudes.prefix(1)), fixes: fixes) == nil)
        let unturned = attitudes.map { CameraAttitude(time: $0.time, pitch: 0, roll: 0) }
        #expect(CameraTurnHeading.samples(attitudes: unturned, fixes: fixes) == nil)
    }
}
