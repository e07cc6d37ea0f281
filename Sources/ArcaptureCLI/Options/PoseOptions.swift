import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR
import Positioning

/// Where a recorded run's orientation comes from and how poses are interpolated: the options
/// `sync` (and footage annotation) share.
struct PoseOptions: Sendable {
    /// The orientation's origin.
    enum Orientation: Sendable {
        /// Fixed heading, pitch, roll (`--orientation`).
        case fixed(DeviceOrientation)
        /// From the direction of travel (`--heading-from-course`).
        case course
        /// From a sidecar file (`--pose-sidecar`).
        case sidecar(String)
        /// The track's own headings when it has them, else the course.
        case automatic
    }

    var orientation: Orientation = .automatic
    var mount = CameraMount()
    var geoidSeparation: Double?
    var limits = InterpolationLimits()

    static let headingFromCourse = Flag(
        "heading-from-course", help: "Heading from the direction of travel (cameras without a compass).")
    static let orientation = Option.text(
        "orientation", "H,P,R", help: "A fixed heading, pitch and roll in degrees instead.")
    static let poseSidecar = Option.text(
        "pose-sidecar", "FILE", help: "Heading, pitch and roll per time from a CSV or JSON-lines file instead.")
    static let mountYaw = Option.number(
        "mount-yaw", "DEGREES", in: -360...360, default: 0,
        help: "The camera's yaw on the vehicle: 180 for a camera facing backwards.")
    static let mountPitch = Option.number(
        "mount-pitch", "DEGREES", in: -90...90, default: 0, help: "The camera's pitch on the vehicle (negative: down).")
    static let geoidSeparationOption = Option.number(
        "geoid-separation", "METRES", in: -120...120,
        help:
            "Added to altitudes above sea level that come without one (GPX, EXIF), instead of EGM96's at each place.")
    static let maxGap = Option.number(
        "max-gap", "SECONDS", in: 0...86_400, default: InterpolationLimits().maximumGap,
        help: "Longer gaps between samples mean 'no pose' inside them (loggers write every 8-30 s).")
    static let maxExtrapolation = Option.number(
        "max-extrapolation", "SECONDS", in: 0...3600, default: InterpolationLimits().maximumExtrapolation,
        help: "How far before or after the samples a pose may be extrapolated.")

    static let specs: [OptionSpec] = [
        headingFromCourse.spec, orientation.spec, poseSidecar.spec, mountYaw.spec, mountPitch.spec,
        geoidSeparationOption.spec, maxGap.spec, maxExtrapolation.spec,
    ]

    init(_ parsed: ParsedArguments) throws(UsageError) {
        let choices = [
            parsed.isSet(Self.headingFromCourse), parsed.isGiven(Self.orientation), parsed.isGiven(Self.poseSidecar),
        ]
        guard choices.filter({ $0 }).count <= 1 else {
            throw UsageError("--heading-from-course, --orientation and --pose-sidecar are alternatives; give one")
        }
        if parsed.isSet(Self.headingFromCourse) { orientation = .course }
        if let text = parsed.text(Self.orientation) {
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard (1...3).contains(parts.count), parts.allSatisfy({ $0?.isFinite ?? false }) else {
                throw UsageError("--orientation must be HEADING[,PITCH[,ROLL]] in degrees, not '\(text)'")
            }
            let values = parts.compactMap { $0 }
            orientation = .fixed(
                DeviceOrientation(
                    heading: values[0], pitch: values.count > 1 ? values[1] : 0, roll: values.count > 2 ? values[2] : 0)
            )
        }
        if let path = parsed.text(Self.poseSidecar) { orientation = .sidecar(path) }
        mount = CameraMount(yaw: try parsed.value(Self.mountYaw), pitch: try parsed.value(Self.mountPitch))
        geoidSeparation = try parsed.value(Self.geoidSeparationOption)
        limits = InterpolationLimits(
            maximumGap: try parsed.value(Self.maxGap), maximumExtrapolation: try parsed.value(Self.maxExtrapolation))
    }

    /// The plan for footage whose positions come from `positions`: GeoAR's, which decides the
    /// poses for `annotate`, `sync` and a footage view alike.
    func plan(_ positions: FootagePosePlan.Positions) -> FootagePosePlan {
        let planned: FootagePosePlan.Orientation
        switch orientation {
        case .fixed(let fixed): planned = .fixed(fixed)
        case .course: planned = .course
        case .automatic: planned = .automatic
        case .sidecar(let path): planned = .sidecar(path: path)
        }
        return FootagePosePlan(
            positions: positions, orientation: planned, mount: mount, limits: limits, geoidSeparation: geoidSeparation)
    }

    /// The timeline for `track` as the plan makes it, and a phrase saying where its orientation
    /// comes from; the plan's warnings go to stderr.
    ///
    /// - Throws: ``InputFileError`` from the sidecar file.
    func timeline(for track: RecordedTrack) throws(InputFileError) -> (PoseTimeline, String) {
        let found = try plan(.track(track)).timeline(for: track)
        for warning in found.warnings { Terminal.warning(warning) }
        return (found.timeline, found.orientation)
    }
}
