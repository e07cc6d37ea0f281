import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR
import Positioning

/// What `capture` draws on live frames and how each frame is posed: the overlay, camera and pose
/// options, parsed and validated, and turned into the GeoAR view's session and settings.
struct LiveOverlayOptions {
    /// The options `capture` takes for the overlay.
    static let specs: [OptionSpec] =
        [
            .value("pois", "FILE.geojson", help: "Draw these points of interest on each frame (needs --location)."),
            .value(
                "route", "FILE",
                help: "A route (GPX or GeoJSON) drawn on the ground; followed, with the panel, with --navigate."),
            .flag("navigate", help: "Follow --route: the next manoeuvre, the panel, remaining distance and time."),
            .value("style", "FILE", help: "A JSON style file: colours, sizes, font, layers, units, banner."),
            .value(
                "banner", "TEMPLATE",
                help: "A banner line: {time} {time:FMT} {lat} {lon} {alt} {heading} {speed} {frame}."),
            .value("select", "ID|NAME", help: "Highlight this POI (its id or name) and always label it (repeatable)."),
            .flag("select-center", help: "Select the POI drawn nearest the frame's centre, frame by frame."),
            .flag("minimap", help: "A plan view at the top right: POIs, the route, the position, heading and track."),
            .flag("north-up", help: "The minimap with north at the top (default: the heading at the top)."),
            .value(
                "sidecar", "FILE.jsonl",
                help: "One JSON line per written frame: the fix, the pose used, the POIs drawn and where."),
            .value("camera", "FILE.yaml", help: "A calibration (camera_info or OpenCV), scaled to the frames."),
            .value("hfov", "DEG", default: "70", help: "The horizontal field of view, without --camera."),
            .value(
                "height-above-ground", "M", default: "1.5", help: "The camera's height above the ground (the route's)."),
            .value("units", "metric|imperial", default: "metric", help: "Distance units on labels."),
            .value("font", "NAME|FILE", default: "DejaVu Sans", help: "A fontconfig font name or a font file."),
            .value("max-distance", "METRES", default: "5000", help: "Leave out POIs further than this."),
            .value("max-markers", "N", default: "30", help: "Draw at most this many markers, the nearest."),
            .value(
                "imu", "auto|DIR[,DIR]",
                help: "Orientation from an IIO accelerometer and magnetometer (auto: the first of each in sysfs)."),
            .value("imu-declination", "DEGREES", default: "0", help: "The magnetic declination where the IMU is."),
            .value(
                "receiver-latency", "SECONDS", default: "0",
                help: "How long fixes take to arrive (a serial GPS: about 0.1): frames are posed that much later."),
        ] + PoseOptions.specs.filter { $0.name != "max-extrapolation" } + [
            .value(
                "max-extrapolation", "SECONDS", default: "2",
                help: "How far past the newest fix a frame is still posed (a 1 Hz receiver needs about 1.5).")
        ]

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
    var imuDeclination = 0.0
    /// `--pose-sidecar`: orientations replayed with a recorded `--location` track.
    var poseSidecar: String?

    /// Whether anything is drawn: without an overlay option, frames pass through untouched.
    var drawsOverlay: Bool {
        files.pointsOfInterest != nil || files.route != nil || settings.banner != nil || settings.styleFile != nil
    }

    init(_ parsed: ParsedArguments) throws(UsageError) {
        // The style is read with the command line's options over it (``mapData()``).
        files = MapDataFiles(pointsOfInterest: parsed.value("pois"), route: parsed.value("route"))
        settings = try AnnotateSettings(parsed, input: "capture")
        selectsCenter = parsed.flag("select-center")
        navigates = parsed.flag("navigate")
        if navigates && files.route == nil { throw UsageError("--navigate follows --route: give the route") }
        sidecar = parsed.value("sidecar")
        if parsed.flag("minimap") {
            minimap = MapRenderer.Options(orientation: parsed.flag("north-up") ? .northUp : .headingUp)
        } else if parsed.flag("north-up") {
            throw UsageError("--north-up is for the minimap: add --minimap")
        }
        if parsed.value("camera") != nil && parsed.value("hfov") != nil {
            throw UsageError("--camera and --hfov are alternatives; give one")
        }
        camera = CameraGeometry(
            calibrationFile: parsed.value("camera"),
            horizontalFieldOfView: try parsed.number("hfov", in: 1...179) ?? 70,
            heightAboveGround: try parsed.number("height-above-ground", in: -1000...10_000) ?? 1.5)
        imu = parsed.value("imu").map { $0.split(separator: ",").map(String.init) }
        if let imu, imu.isEmpty || imu.count > 2 {
            throw UsageError(
                "--imu must be auto, or one or two IIO device directories, not '\(parsed.value("imu") ?? "")'")
        }
        imuDeclination = try parsed.number("imu-declination", in: -180...180) ?? 0
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
                maximumGap: poseOptions.limits.maximumGap,
                maximumExtrapolation: try parsed.number("max-extrapolation", in: 0...3600) ?? 2),
            receiverLatency: try parsed.number("receiver-latency", in: 0...10) ?? 0,
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
