import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation
import Positioning

/// `arcapture project`'s options, parsed and validated.
struct ProjectOptions: Sendable {
    var poisFile: String
    var latitude: Double
    var longitude: Double
    var altitude: Double
    var orientation: DeviceOrientation
    var cameraFile: String?
    var horizontalFieldOfView: Double?
    var size: FrameSize?
    var poiAltitude: Double?
    var heightAboveGround: Double
    var inViewOnly = false
    var within: Double?
    var json = false

    static let pois = OverlayOptions.pois.described(
        "A GeoJSON file (a FeatureCollection, a Feature or a geometry), whose Points and areas are the POIs; or a "
            + "GPX file, whose waypoints are.")
    static let position = Option.text(
        "position", "LAT,LON,ALT", help: "The device: degrees, degrees, metres above the WGS84 ellipsoid.")
    static let orientation = Option.text(
        "orientation", "H,P,R", defaultText: "0,0,0",
        help: "Heading clockwise from true north, pitch up, roll clockwise seen from behind, in degrees.")
    static let camera = OverlayOptions.camera.described(
        "A ROS camera_info or OpenCV calibration YAML file (scaled to --size when given, same aspect only).")
    static let hfov = Option.number(
        "hfov", "DEGREES", in: 1...179,
        help: "Instead of --camera: an undistorted camera with this horizontal field of view.")
    static let size = CameraOptions.size.described("The frame size (required with --hfov).", showsDefault: false)
    static let poiAltitude = Option.number(
        "poi-altitude", "METRES", in: -11_000...100_000,
        help: "The altitude of POIs that give none (ellipsoidal metres).")
    static let heightAboveGround = OverlayOptions.heightAboveGround.described(
        "Without --poi-altitude, POIs without an altitude stand on the ground this far below the device.")
    static let inView = Flag("in-view", help: "List only the points in view.")
    static let within = Option.number(
        "within", "METRES", in: 0...20_000_000, help: "List only the points at most this far away.")
    static let json = Flag(
        "json", help: "Print a JSON array of {id, name, u, v, depth, distance_m, bearing_deg, elevation_deg, in_view}.")

    /// `project`'s options, in the order `--help` lists them.
    static let specs: [OptionSpec] = [
        pois.spec, position.spec, orientation.spec, camera.spec, hfov.spec, size.spec, poiAltitude.spec,
        heightAboveGround.spec, inView.spec, within.spec, json.spec,
    ]

    /// The pose and camera options `annotate` shares with `project` (not the listing's).
    static let annotateSpecs: [OptionSpec] = [
        pois.spec, position.spec, orientation.spec, camera.spec, hfov.spec, poiAltitude.spec, heightAboveGround.spec,
    ]

    /// Parses `project`'s options; `imageSize` is the frame's size when it comes from an image
    /// (`annotate`), which then needs no `--size`.
    init(_ parsed: ParsedArguments, imageSize: FrameSize? = nil) throws(UsageError) {
        guard let pois = parsed.text(Self.pois) else { throw UsageError("--pois FILE.geojson is required") }
        poisFile = pois
        guard let position = parsed.text(Self.position) else { throw UsageError("--position LAT,LON,ALT is required") }
        let coordinates = Self.numbers(position)
        guard let coordinates, coordinates.count == 3,
            let coordinate = GeodeticCoordinate(
                latitude: coordinates[0], longitude: coordinates[1], altitude: coordinates[2])
        else {
            throw UsageError(
                "--position must be LAT,LON,ALT (degrees, degrees, metres above the WGS84 ellipsoid), not '\(position)'"
            )
        }
        (latitude, longitude, altitude) = (coordinate.latitude, coordinate.longitude, coordinates[2])
        let angles = parsed.text(Self.orientation).map(Self.numbers) ?? [0]
        guard let angles, (1...3).contains(angles.count), angles.count < 2 || (-90...90).contains(angles[1]) else {
            throw UsageError(
                "--orientation must be HEADING[,PITCH[,ROLL]] in degrees, pitch within ±90, not '\(parsed.text(Self.orientation) ?? "")'"
            )
        }
        orientation = DeviceOrientation(
            heading: angles[0], pitch: angles.count > 1 ? angles[1] : 0, roll: angles.count > 2 ? angles[2] : 0)
        cameraFile = parsed.text(Self.camera)
        horizontalFieldOfView = try parsed.value(Self.hfov)
        size = try parsed.valueIfDeclared(Self.size)
        if let imageSize {
            if let size, size != imageSize {
                throw UsageError(
                    "--size \(size.width)x\(size.height) differs from the image's \(imageSize.width)x\(imageSize.height)"
                )
            }
            size = imageSize
        }
        switch (cameraFile, horizontalFieldOfView) {
        case (nil, nil):
            // `annotate` takes the size from the image and has no --size: say only what it accepts.
            throw UsageError(
                imageSize == nil
                    ? "a camera is required: --camera FILE.yaml, or --hfov DEGREES with --size WxH"
                    : "a camera is required: --camera FILE.yaml or --hfov DEGREES (the image gives the size)")
        case (.some, .some): throw UsageError("--camera and --hfov are alternatives; give one")
        case (nil, .some) where size == nil: throw UsageError("--hfov needs --size WxH")
        default: break
        }
        poiAltitude = try parsed.value(Self.poiAltitude)
        heightAboveGround = try parsed.value(Self.heightAboveGround)
        inViewOnly = parsed.isSetIfDeclared(Self.inView)
        within = try parsed.valueIfDeclared(Self.within)
        json = parsed.isSetIfDeclared(Self.json)
    }

    private static func numbers(_ text: String) -> [Double]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let values = parts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        return values.count == parts.count && values.allSatisfy(\.isFinite) ? values : nil
    }

    /// The camera: the calibration file scaled to the frame, or the field of view.
    ///
    /// - Throws: `InputFileError` from the calibration file.
    func camera() throws(InputFileError) -> CameraModel {
        if let path = cameraFile {
            return try CameraModel(cameraInfoFile: path, frameSize: size.map { (Int($0.width), Int($0.height)) })
        }
        let frame = size ?? FrameSize(width: 1280, height: 720)
        return CameraModel(
            horizontalFieldOfView: horizontalFieldOfView ?? 70, width: Int(frame.width), height: Int(frame.height))
    }

    /// Reads the POI file and projects its points for this pose and camera.
    ///
    /// - Throws: `InputFileError` from the POI or calibration file.
    func project() throws(InputFileError) -> (
        file: GeoJSONFile, camera: CameraModel, points: [ProjectedPointOfInterest]
    ) {
        let file = try GeoJSONFile(contentsOf: poisFile)
        let camera = try camera()
        let pose = DevicePose(latitude: latitude, longitude: longitude, altitude: altitude, orientation: orientation)
        let points = Projector(pose: pose, camera: camera, groundAltitude: groundAltitude).project(
            file.pointsOfInterest)
        return (file, camera, points)
    }

    /// The altitude of POIs without one: `--poi-altitude`, or the device's minus its height above ground.
    var groundAltitude: Double { poiAltitude ?? altitude - heightAboveGround }
}
