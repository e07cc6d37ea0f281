import Foundation

/// Heading from the direction of travel, for cameras without a compass (dash cameras, bikes).
///
/// - The course is the fix's own course over ground when the receiver reports one, else the
///   bearing from the previous fix (live) or from the previous to the next fix (recorded tracks,
///   which have no course field in GPX).
/// - Smoothing averages unit vectors (sin, cos), never angles, so 359° and 1° average to 0°: an
///   exponential filter with time constant ``CourseHeadingOptions/smoothingTime``; recorded tracks
///   are filtered forwards and backwards and the two combined, which removes the lag.
/// - Below ``CourseHeadingOptions/minimumSpeed`` the heading is held (a parked car does not spin
///   with the course's noise); before the first movement there is no heading at all live, and the
///   first moving heading is used for a recorded track.
/// - Accuracy is atan(speed error / speed): about 17° at 1 m/s, 3.4° at 5 m/s.
public struct CourseHeadingEstimator: Sendable {
    /// The options.
    public let options: CourseHeadingOptions
    private var previous: LocationFix?
    private var smoothed: (east: Double, north: Double, time: Date, accuracy: Double)?

    /// Creates an estimator.
    public init(options: CourseHeadingOptions = CourseHeadingOptions()) { self.options = options }

    /// Feeds a live fix; returns the heading at its time, or nil before the first movement.
    public mutating func update(with fix: LocationFix) -> OrientationSample? {
        defer { previous = fix }
        let motion = Self.motion(of: fix, before: previous, after: nil)
        if let motion, motion.speed >= options.minimumSpeed {
            let accuracy = atan2(options.speedError, motion.speed) * 180 / .pi
            let course = motion.course * .pi / 180
            if let last = smoothed, options.smoothingTime > 0 {
                let alpha = 1 - exp(-max(0, fix.time.timeIntervalSince(last.time)) / options.smoothingTime)
                smoothed = (
                    last.east + alpha * (sin(course) - last.east), last.north + alpha * (cos(course) - last.north),
                    fix.time, accuracy
                )
            } else {
                smoothed = (sin(course), cos(course), fix.time, accuracy)
            }
        }
        guard let current = smoothed else { return nil }
        smoothed?.time = fix.time
        return OrientationSample(
            time: fix.time, heading: Self.bearing(east: current.east, north: current.north),
            headingAccuracy: current.accuracy, origin: .course,
            receivedMonotonicNanoseconds: fix.receivedMonotonicNanoseconds)
    }

    /// Headings for a whole recorded track (fixes in time order): one sample per fix from the first
    /// movement on, smoothed without lag; none when the track never moves.
    public static func samples(for fixes: [LocationFix], options: CourseHeadingOptions = CourseHeadingOptions())
        -> [OrientationSample]
    {
        courses(for: fixes, options: options).compactMap(\.sample)
    }

    /// What ``samples(for:options:)`` gives, one entry per fix (nil where it gives none), with
    /// whether the camera moves at that fix (at least ``CourseHeadingOptions/minimumSpeed``): a
    /// held heading is the course of an earlier fix, not this one's.
    static func courses(for fixes: [LocationFix], options: CourseHeadingOptions) -> [(
        sample: OrientationSample?, moving: Bool
    )] {
        let motions = fixes.indices.map { index in
            motion(
                of: fixes[index], before: index > 0 ? fixes[index - 1] : nil,
                after: index + 1 < fixes.count ? fixes[index + 1] : nil)
        }
        typealias Vector = (east: Double, north: Double, accuracy: Double)
        func pass(_ order: [Int]) -> [Vector?] {
            var result = [Vector?](repeating: nil, count: fixes.count)
            var state: Vector?
            var lastTime: Date?
            for index in order {
                if let motion = motions[index], motion.speed >= options.minimumSpeed {
                    let course = motion.course * .pi / 180
                    let accuracy = atan2(options.speedError, motion.speed) * 180 / .pi
                    if let current = state, let lastTime, options.smoothingTime > 0 {
                        let dt = abs(fixes[index].time.timeIntervalSince(lastTime))
                        let alpha = 1 - exp(-dt / options.smoothingTime)
                        state = (
                            current.east + alpha * (sin(course) - current.east),
                            current.north + alpha * (cos(course) - current.north), accuracy
                        )
                    } else {
                        state = (sin(course), cos(course), accuracy)
                    }
                }
                lastTime = fixes[index].time
                result[index] = state
            }
            return result
        }
        let forward = pass(Array(fixes.indices))
        let backward = pass(fixes.indices.reversed())
        return fixes.indices.map { index in
            let moving = (motions[index]?.speed ?? 0) >= options.minimumSpeed
            let combined: Vector
            switch (forward[index], backward[index]) {
            case (let f?, let b?):
                combined = ((f.east + b.east) / 2, (f.north + b.north) / 2, max(f.accuracy, b.accuracy))
            case (let f?, nil): combined = f
            case (nil, let b?): combined = b
            case (nil, nil): return (nil, moving)
            }
            let sample = OrientationSample(
                time: fixes[index].time, heading: bearing(east: combined.east, north: combined.north),
                headingAccuracy: combined.accuracy, origin: .course)
            return (sample, moving)
        }
    }

    /// The course (degrees) and speed (m/s) at a fix: its own when reported, else from neighbours
    /// no more than 10 s away.
    static func motion(of fix: LocationFix, before: LocationFix?, after: LocationFix?) -> (
        course: Double, speed: Double
    )? {
        if let course = fix.course, let speed = fix.speed { return (course, speed) }
        let neighbours = [before, after].compactMap { $0 }.filter { abs($0.time.timeIntervalSince(fix.time)) <= 10 }
        let from = neighbours.contains { $0.time < fix.time } ? before ?? fix : fix
        let to = neighbours.contains { $0.time > fix.time } ? after ?? fix : fix
        let seconds = to.time.timeIntervalSince(from.time)
        guard seconds > 0 else { return nil }
        let displacement = GroundDisplacement(from: from.coordinate, to: to.coordinate)
        let speed = fix.speed ?? displacement.distance / seconds
        guard displacement.distance > 0 else { return (fix.course ?? 0, 0) }
        return (fix.course ?? displacement.bearing, speed)
    }

    private static func bearing(east: Double, north: Double) -> Double {
        CompassDegrees.wrapped(atan2(east, north) * 180 / .pi)
    }
}
