import Foundation
import Positioning

/// Positions and orientations over time, and the pose at any frame's time.
///
/// The pose for a frame is interpolated from the samples around its capture time, never "the
/// latest fix":
/// - position: linearly in ENU between the two fixes around the time (the same as linearly in
///   ECEF), so a constant-velocity vehicle is exactly where it was;
/// - orientation: by spherical linear interpolation of the two orientations' quaternions, along
///   the shorter arc (a heading from 359° to 1° passes through 0°, not 180°), then turned by the
///   ``CameraMount``;
/// - before the first or after the last sample, up to ``InterpolationLimits/maximumExtrapolation``
///   seconds: position continues at the last two fixes' velocity (or holds, with one fix),
///   orientation holds, and ``PoseEstimate/extrapolation`` says by how much;
/// - a gap between samples longer than ``InterpolationLimits/maximumGap``, or a time past the
///   extrapolation limit, gives ``PoseLookup/noPose(_:)`` with the reason.
public struct PoseTimeline: Sendable {
    /// Positions, oldest first, strictly increasing in time.
    public private(set) var positions: [LocationFix]
    /// Orientations (or the fixed one).
    public private(set) var orientation: OrientationInput
    /// How the camera sits on the orientation's body.
    public var mount: CameraMount
    /// How far to interpolate and extrapolate.
    public var limits: InterpolationLimits
    /// Metres added to mean-sea-level altitudes that come without a geoid separation (a GPX
    /// `<ele>`); nil when the user gave none: the geoid model's separation is added instead (EGM96,
    /// Positioning's `GeoidGrid`), and without one such altitudes are marked approximate.
    public var assumedGeoidSeparation: Double?

    /// Creates a timeline. Positions and samples are sorted by time; of several with one time, the
    /// last wins (a source that re-sends a merged fix replaces the earlier one).
    public init(
        positions: [LocationFix], orientation: OrientationInput, mount: CameraMount = CameraMount(),
        limits: InterpolationLimits = InterpolationLimits(), assumedGeoidSeparation: Double? = nil
    ) {
        self.positions = Self.ordered(positions, time: \.time)
        switch orientation {
        case .fixed: self.orientation = orientation
        case .samples(let samples): self.orientation = .samples(Self.ordered(samples, time: \.time))
        }
        self.mount = mount
        self.limits = limits
        self.assumedGeoidSeparation = assumedGeoidSeparation
    }

    // MARK: Live use

    /// Adds a fix (replacing one with the same time), keeping the order.
    public mutating func insert(_ fix: LocationFix) {
        Self.insert(fix, into: &positions, time: \.time)
    }

    /// Adds an orientation sample (replacing one with the same time); ignored with a fixed orientation.
    public mutating func insert(_ sample: OrientationSample) {
        guard case .samples(var samples) = orientation else { return }
        Self.insert(sample, into: &samples, time: \.time)
        orientation = .samples(samples)
    }

    /// Drops samples older than `time`, keeping the newest one before it so frames at `time` still
    /// interpolate: live capture calls this to keep memory bounded.
    public mutating func discard(before time: Date) {
        Self.discard(&positions, before: time, time: \.time)
        if case .samples(var samples) = orientation {
            Self.discard(&samples, before: time, time: \.time)
            orientation = .samples(samples)
        }
    }

    // MARK: Lookup

    /// The pose at `time`, or why there is none.
    public func pose(at time: Date) -> PoseLookup {
        let position: PositionAtTime
        switch self.position(at: time) {
        case .failure(let reason): return .noPose(reason)
        case .success(let found): position = found
        }
        let body: DeviceOrientation
        let headingAccuracy: Double?
        switch orientation {
        case .fixed(let fixed, let accuracy):
            body = fixed
            headingAccuracy = accuracy
        case .samples(let samples):
            switch Self.interpolatedOrientation(in: samples, at: time, limits: limits) {
            case .failure(let reason): return .noPose(reason)
            case .success(let found): (body, headingAccuracy) = found
            }
        }
        return .pose(
            PoseEstimate(
                time: time,
                pose: DevicePose(
                    latitude: position.latitude, longitude: position.longitude, altitude: position.altitude,
                    orientation: mount.cameraOrientation(body: body)),
                extrapolation: position.extrapolation, horizontalAccuracy: position.horizontalAccuracy,
                headingAccuracy: headingAccuracy, altitudeIsApproximate: position.altitudeIsApproximate))
    }

    struct PositionAtTime {
        var latitude: Double
        var longitude: Double
        var altitude: Double
        var extrapolation: Double
        var horizontalAccuracy: Double?
        var altitudeIsApproximate: Bool
    }

    /// The interpolated position at `time` (orientation aside), or why there is none.
    func position(at time: Date) -> Result<PositionAtTime, NoPoseReason> {
        guard let first = positions.first, let last = positions.last else { return .failure(.noPositions) }
        let index = Self.firstIndex(after: time, in: positions, time: \.time)
        let a: LocationFix
        let b: LocationFix
        var extrapolation = 0.0
        if index == 0 {
            extrapolation = first.time.timeIntervalSince(time)
            guard extrapolation <= limits.maximumExtrapolation else {
                return .failure(.beforeTrack(seconds: extrapolation))
            }
            (a, b) = positions.count > 1 ? (positions[0], positions[1]) : (first, first)
        } else if index == positions.count {
            extrapolation = time.timeIntervalSince(last.time)
            guard extrapolation <= limits.maximumExtrapolation else {
                return .failure(.afterTrack(seconds: extrapolation))
            }
            (a, b) = positions.count > 1 ? (positions[index - 2], last) : (last, last)
        } else {
            (a, b) = (positions[index - 1], positions[index])
            let gap = b.time.timeIntervalSince(a.time)
            // A frame exactly at a fix's time is that fix, whatever gap follows it.
            guard gap <= limits.maximumGap || time == a.time else { return .failure(.positionGap(seconds: gap)) }
        }
        let span = b.time.timeIntervalSince(a.time)
        // Extrapolating across a long gap would project a stale velocity: hold the nearest fix.
        let usable = span > 0 && span <= limits.maximumGap && time != a.time
        let fraction = usable ? time.timeIntervalSince(a.time) / span : 0
        let base = usable ? a : (index == 0 ? first : (index == positions.count ? last : a))
        let (altitudeA, approximateA) = altitude(of: usable ? a : base, fallback: usable ? b : base)
        let (altitudeB, approximateB) = altitude(of: usable ? b : base, fallback: usable ? a : base)
        let frame = LocalFrame(
            latitude: base.coordinate.latitude, longitude: base.coordinate.longitude, altitude: altitudeA)
        var point = frame.ecef(of: ENUVector(east: 0, north: 0, up: 0))
        if usable {
            let toB = frame.enu(latitude: b.coordinate.latitude, longitude: b.coordinate.longitude, altitude: altitudeB)
            point = frame.ecef(
                of: ENUVector(east: toB.east * fraction, north: toB.north * fraction, up: toB.up * fraction))
        }
        let geodetic = point.geodetic
        let accuracies = [a.horizontalAccuracy, b.horizontalAccuracy].compactMap { $0 }
        return .success(
            PositionAtTime(
                latitude: geodetic.latitude, longitude: geodetic.longitude, altitude: geodetic.altitude,
                extrapolation: extrapolation, horizontalAccuracy: accuracies.max(),
                altitudeIsApproximate: approximateA || approximateB))
    }

    /// A fix's ellipsoidal altitude, or the other fix's when it has none (a 2D fix), or 0; and
    /// whether it is approximate.
    private func altitude(of fix: LocationFix, fallback: LocationFix) -> (Double, Bool) {
        for candidate in [fix, fallback] {
            if let altitude = candidate.coordinate.altitude { return (altitude, false) }
            if let found = candidate.ellipsoidalAltitude(assumingGeoidSeparation: assumedGeoidSeparation) {
                return (found.altitude, found.reference.isApproximate)
            }
        }
        return (0, true)
    }

    private static func interpolatedOrientation(
        in samples: [OrientationSample], at time: Date, limits: InterpolationLimits
    ) -> Result<(DeviceOrientation, Double?), NoPoseReason> {
        guard let first = samples.first, let last = samples.last else { return .failure(.noOrientation) }
        let index = firstIndex(after: time, in: samples, time: \.time)
        if index == 0 {
            guard first.time.timeIntervalSince(time) <= limits.maximumExtrapolation else {
                return .failure(.noOrientation)
            }
            return .success((body(first), first.headingAccuracy))
        }
        if index == samples.count {
            guard time.timeIntervalSince(last.time) <= limits.maximumExtrapolation else {
                return .failure(.noOrientation)
            }
            return .success((body(last), last.headingAccuracy))
        }
        let a = samples[index - 1]
        let b = samples[index]
        let gap = b.time.timeIntervalSince(a.time)
        if time == a.time { return .success((body(a), a.headingAccuracy)) }
        guard gap <= limits.maximumGap else { return .failure(.orientationGap(seconds: gap)) }
        let fraction = time.timeIntervalSince(a.time) / gap
        let turned = body(a).quaternion.slerp(to: body(b).quaternion, t: fraction)
        let accuracies = [a.headingAccuracy, b.headingAccuracy].compactMap { $0 }
        return .success((DeviceOrientation(quaternion: turned), accuracies.max()))
    }

    private static func body(_ sample: OrientationSample) -> DeviceOrientation {
        DeviceOrientation(heading: sample.heading, pitch: sample.pitch ?? 0, roll: sample.roll ?? 0)
    }

    // MARK: Ordered arrays

    /// The index of the first element whose time is after `time` (binary search).
    private static func firstIndex<Element>(after time: Date, in elements: [Element], time key: (Element) -> Date)
        -> Int
    {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if key(elements[middle]) <= time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func ordered<Element>(_ elements: [Element], time key: (Element) -> Date) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements.enumerated().sorted(by: {
            key($0.element) < key($1.element) || (key($0.element) == key($1.element) && $0.offset < $1.offset)
        }) {
            if let last = result.last, key(last) == key(element.element) {
                result[result.count - 1] = element.element
            } else {
                result.append(element.element)
            }
        }
        return result
    }

    private static func insert<Element>(_ element: Element, into elements: inout [Element], time key: (Element) -> Date)
    {
        let index = firstIndex(after: key(element), in: elements, time: key)
        if index > 0, key(elements[index - 1]) == key(element) {
            elements[index - 1] = element
        } else {
            elements.insert(element, at: index)
        }
    }

    private static func discard<Element>(_ elements: inout [Element], before time: Date, time key: (Element) -> Date) {
        let index = firstIndex(after: time, in: elements, time: key)
        if index > 1 { elements.removeFirst(index - 1) }
    }
}
