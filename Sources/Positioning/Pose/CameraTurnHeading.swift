import Foundation

/// Headings for a camera that records its own turns (GoPro's CORI) but cannot tell north: each
/// turn anchored to north by the direction of travel around it.
///
/// The course over ground says where the camera points only on average (a walker's course
/// wanders by several degrees from fix to fix, and a head turned to look aside is not in it at
/// all); the camera's turns say exactly how it moved between fixes, but from an unknown start and
/// with a slow drift. So at each fix where the camera moves (at least
/// ``CourseHeadingOptions/minimumSpeed``), the offset between the smoothed course (plus the
/// mount's yaw) and the turn at that time is an estimate of where the turns' zero points; at each
/// attitude the heading is its turn plus the circular mean of those offsets within `window`
/// seconds around it, each weighted by its course's accuracy (1/σ²). The window is long enough to
/// average the course's noise and short enough to follow the drift. Before the first or after
/// the last moving fix, the nearest window's offset holds.
///
/// The heading's accuracy is how well turns and course agree there: the offsets' circular
/// standard deviation in the window, at least 1°.
public enum CameraTurnHeading {
    /// One heading per attitude with a ``CameraAttitude/yaw`` (with its pitch and roll), nil when
    /// there are fewer than two such attitudes or no fix in their span where the camera moves.
    ///
    /// - Parameters:
    ///   - attitudes: the camera's attitudes, oldest first.
    ///   - fixes: its track, oldest first.
    ///   - mountYaw: degrees the camera faces right of the direction of travel (180 for one facing
    ///     backwards).
    ///   - options: how the course is estimated.
    ///   - window: seconds of course around each attitude that anchor it.
    public static func samples(
        attitudes: [CameraAttitude], fixes: [LocationFix], mountYaw: Double = 0,
        options: CourseHeadingOptions = CourseHeadingOptions(), window: Double = 30
    ) -> [OrientationSample]? {
        let turned = attitudes.filter { $0.yaw != nil }
        guard turned.count >= 2, let firstTime = turned.first?.time, let lastTime = turned.last?.time else {
            return nil
        }
        let anchors = Self.anchors(
            turned: turned, fixes: fixes, mountYaw: mountYaw, options: options, span: (firstTime, lastTime))
        guard !anchors.isEmpty else { return nil }
        // Prefix sums of the weighted offsets' unit vectors: each window's mean in constant time.
        var sums: [(east: Double, north: Double, weight: Double)] = [(0, 0, 0)]
        for anchor in anchors {
            let last = sums[sums.count - 1]
            let angle = anchor.offset * .pi / 180
            sums.append(
                (
                    last.east + anchor.weight * sin(angle), last.north + anchor.weight * cos(angle),
                    last.weight + anchor.weight
                )
            )
        }
        var low = 0
        var high = 0
        // The last gap's window, found once per gap (a long stop has thousands of attitudes).
        var fallback: (nearest: Int, range: Range<Int>)?
        return turned.map { attitude in
            let time = attitude.time.timeIntervalSince1970
            while low < anchors.count && anchors[low].time < time - window / 2 { low += 1 }
            while high < anchors.count && anchors[high].time <= time + window / 2 { high += 1 }
            var range = low..<max(low, high)
            if range.isEmpty {
                // No moving fix this near: the window around the nearest one (the next, or the
                // last after the end; one before the gap is more than half a window away too).
                let nearest = low >= anchors.count ? anchors.count - 1 : low
                if let known = fallback, known.nearest == nearest {
                    range = known.range
                } else {
                    let centre = anchors[nearest].time
                    var from = nearest
                    while from > 0 && anchors[from - 1].time >= centre - window / 2 { from -= 1 }
                    var to = nearest
                    while to + 1 < anchors.count && anchors[to + 1].time <= centre + window / 2 { to += 1 }
                    range = from..<(to + 1)
                    fallback = (nearest, range)
                }
            }
            let (east, north, weight) = (
                sums[range.upperBound].east - sums[range.lowerBound].east,
                sums[range.upperBound].north - sums[range.lowerBound].north,
                sums[range.upperBound].weight - sums[range.lowerBound].weight
            )
            let offset = atan2(east, north) * 180 / .pi
            // Circular standard deviation: √(−2 ln R), R the mean resultant length.
            let resultant = weight > 0 ? min(1, (east * east + north * north).squareRoot() / weight) : 0
            let spread = resultant > 0 ? (-2 * log(resultant)).squareRoot() * 180 / .pi : 180
            return OrientationSample(
                time: attitude.time, heading: CompassDegrees.wrapped((attitude.yaw ?? 0) + offset),
                pitch: attitude.pitch, roll: attitude.roll,
                headingAccuracy: max(1, spread), origin: .cameraTurns)
        }
    }

    /// The moving fixes within the turns' span: time, the course minus the turn there, weight.
    private static func anchors(
        turned: [CameraAttitude], fixes: [LocationFix], mountYaw: Double, options: CourseHeadingOptions,
        span: (Date, Date)
    ) -> [(time: Double, offset: Double, weight: Double)] {
        let courses = CourseHeadingEstimator.courses(for: fixes, options: options)
        var result: [(time: Double, offset: Double, weight: Double)] = []
        var index = 0
        for (number, fix) in fixes.enumerated() where fix.time >= span.0 && fix.time <= span.1 {
            guard courses[number].moving, let heading = courses[number].sample else { continue }
            // The turn at the fix's time, between the two attitudes around it.
            while index + 1 < turned.count && turned[index + 1].time <= fix.time { index += 1 }
            guard let before = turned[index].yaw else { continue }
            var yaw = before
            if index + 1 < turned.count, let after = turned[index + 1].yaw, turned[index].time < fix.time {
                let weight =
                    fix.time.timeIntervalSince(turned[index].time)
                    / turned[index + 1].time.timeIntervalSince(turned[index].time)
                yaw = before + (after - before) * weight
            }
            let accuracy = max(1, heading.headingAccuracy ?? 10)
            result.append(
                (fix.time.timeIntervalSince1970, heading.heading + mountYaw - yaw, 1 / (accuracy * accuracy)))
        }
        return result
    }
}
