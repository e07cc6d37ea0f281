import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR
import Positioning

/// What `capture` draws on live frames and how each frame is posed: the overlay, camera and pose
/// options, parsed and validated, and turned into the GeoAR view's session and settings.
struct LiveOverlayOptions {
    static let navigate = Flag(
        "navigate", help: "Follow --route: the next manoeuvre, the panel, remaining distance and time.")
    static let selectCenter = Flag(
        "select-center", help: "Select the POI drawn nearest the frame's centre, frame by frame.")
    static let northUp = Flag("north-up", help: "The minimap with north at the top (default: the heading at the top).")
    static let imu = Option.text(
        "imu", "auto|DIR[,DIR]",
        help: "Orientation from an IIO accelerometer and magnetometer (auto: the first of each in sysfs).")
    static let imuDeclination = Option<Double?>(
        "imu-declination", "DEGREES|auto", defaultText: "auto",
        help: "The magnetic declination where the IMU is, east positive; auto: the World Magnetic Model's at the "
            + "position"
    ) { text throws(UsageError) in
        if text == "auto" { return nil }
        guard let degrees = Double(text), degrees.isFinite, (-180...180).contains(degrees) else {
            throw UsageError("--imu-declination must be auto or a number from -180 to 180, not '\(text)'")
        }
        return degrees
    }
    static let receiverLatency = Option.number(
        "receiver-latency", "SECONDS", in: 0...10, default: 0,
        help: "How long fixes take to arrive (a serial GPS: about 0.1): frames are posed that much later.")
    /// Live, a frame is posed past the newest fix for longer than footage is (a 1 Hz receiver).
    static let maxExtrapolation = Option.number(
        "max-extrapolation", "SECONDS", in: 0...3600, default: 2,
        help: "How far past the newest fix a frame is still posed (a 1 Hz receiver needs about 1.5).")

    /// The options `capture` takes for the overlay.
    static let specs: [OptionSpec] =
        [
            OverlayOptions.pois.spec, OverlayOptions.route.spec, navigate.spec, OverlayOptions.style.spec,
            OverlayOptions.banner.spec, OverlayOptions.select.spec, selectCenter.spec, OverlayOptions.minimap.spec,
            northUp.spec, OverlayOptions.sidecar.spec, OverlayOptions.camera.spec, OverlayOptions.hfov.spec,
            OverlayOptions.heightAboveGround.spec, OverlayOptions.units.spec, OverlayOptions.font.spec,
            OverlayOptions.maxDistance.spec, OverlayOptions.maxMarkers.spec, imu.spec, imuDeclination.spec,
            receiverLatency.spec,
        ] + PoseOptions.specs.filter { $0.name != maxExtrapolation.name } + [maxExtrapolation.spec]

    var files: MapDataFiles
    var settings: AnnotateSettings
    var selectsCenter: Bool
    var navigates: Bool
    var minimap: MapRenderer.Options?
    var sidecar: String?
    var camera: CameraGeometry
    var pose: LivePoseTracker.Options
    /// `--imu`: the accelerometer's and the magnetometer's device directories, or "auto".
    var imu: [String]?
    /// `--imu-declination`: nil for the World Magnetic Model's where the camera is.
    var imuDeclination: Double?
    /// `--pose-sidecar`: orientations replayed with a recorded `--location` track.
    var poseSidecar: String?

    /// Whether anything is drawn: without an overlay option, frames pass through untouched.
    var drawsOverlay: Bool {
        files.pointsOfInterest != nil || files.route != nil || settings.banner != nil || settings.styleFile != nil
    }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        // The style is read with the command line's options over it (``mapData()``).
        files = MapDataFiles(
            pointsOfInterest: parsed.text(OverlayOptions.pois), route: parsed.text(OverlayOptions.route))
        settings = try AnnotateSettings(parsed, input: "capture")
        selectsCenter = parsed.isSet(Self.selectCenter)
        navigates = parsed.isSet(Self.navigate)
        if navigates && files.route == nil { throw UsageError("--navigate follows --route: give the route") }
        sidecar = parsed.text(OverlayOptions.sidecar)
        if parsed.isSet(OverlayOptions.minimap) {
            minimap = MapRenderer.Options(orientation: parsed.isSet(Self.northUp) ? .northUp : .headingUp)
        } else if parsed.isSet(Self.northUp) {
            throw UsageError("--north-up is for the minimap: add --minimap")
        }
        if parsed.isGiven(OverlayOptions.camera) && parsed.isGiven(OverlayOptions.hfov) {
            throw UsageError("--camera and --hfov are alternatives; give one")
        }
        camera = CameraGeometry(
            calibrationFile: parsed.text(OverlayOptions.camera),
            horizontalFieldOfView: try parsed.value(OverlayOptions.hfov),
            heightAboveGround: try parsed.value(OverlayOptions.heightAboveGround))
        imu = parsed.text(Self.imu).map { $0.split(separator: ",").map(String.init) }
        if let imu, imu.isEmpty || imu.count > 2 {
            throw UsageError(
                "--imu must be auto, or one or two IIO device directories, not '\(parsed.text(Self.imu) ?? "")'")
        }
        imuDeclination = try parsed.value(Self.imuDeclination) ?? nil
        let poseOptions = try PoseOptions(parsed)
        let orientation: LivePoseTracker.OrientationChoice
        switch poseOptions.orientation {
        case .fixed(let fixed): orientation = .fixed(fixed)
        case .course: orientation = .course
        case .automatic: orientation = .automatic
        case .sidecar(let path):
            // Replayed with the track, on its clock: the track's own headings are replaced.
            guard imu == nil else { throw UsageError("--imu and --pose-sidecar are alternatives; give one") }
            poseSidecar = path
            orientation = .automatic
        }
        pose = LivePoseTracker.Options(
            orientation: orientation, mount: poseOptions.mount,
            limits: InterpolationLimits(
                maximumGap: poseOptions.limits.maximumGap, maximumExtrapolation: try parsed.value(Self.maxExtrapolation)
            ),
            receiverLatency: .seconds(try parsed.value(Self.receiverLatency)),
            geoidSeparation: poseOptions.geoidSeparation)
    }

    /// The IMU pose source `--imu` names, or nil without one.
    ///
    /// - Throws: ``UsageError`` when no such IIO device (or no accelerometer and magnetometer) exists.
    func imuSource() throws(UsageError) -> IIOPoseSource? {
        guard let imu else { return nil }
        let devices = IIODevice.all()
        let chosen: [IIODevice]
        if imu == ["auto"] {
            chosen = devices
        } else {
            chosen = try imu.map { path throws(UsageError) in
                let resolved = path.hasPrefix("/") ? path : "/sys/bus/iio/devices/\(path)"
                guard
                    let device = IIODevice.all(root: URL(fileURLWithPath: resolved).deletingLastPathComponent().path)
                        .first(where: { $0.path == resolved })
                else { throw UsageError("--imu: no IIO device at '\(resolved)'") }
                return device
            }
        }
        guard let accelerometer = chosen.first(where: \.hasAccelerometer),
            let magnetometer = chosen.first(where: \.hasMagnetometer)
        else {
            let found = devices.map(\.name).joined(separator: ", ")
            throw UsageError(
                "--imu needs an accelerometer and a magnetometer (IIO devices found: \(found.isEmpty ? "none" : found))"
            )
        }
        return IIOPoseSource(accelerometer: accelerometer, magnetometer: magnetometer, declination: imuDeclination)
    }

    /// The map data, with the command line's style options over the style file's.
    ///
    /// - Throws: `InputFileError` for a missing or malformed file.
    func mapData() throws(InputFileError) -> MapData {
        var data = try files.load()
        data.style = try settings.loadStyle()
        SelectedPOIs.resolve(&data.style, among: data.pointsOfInterest)
        data.banner = settings.banner ?? data.style.banner
        return data
    }
}
