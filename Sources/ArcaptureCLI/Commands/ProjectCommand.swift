import ARCompositor
import CaptureKit
import Foundation

/// `arcapture project`: where each point of interest lands in the frame for one pose.
enum ProjectCommand {
    static let spec = CommandSpec(
        name: "project",
        overview: """
            Project points of interest into a camera frame. For one device pose and camera, print each \
            point's pixel (u, v), depth, distance, bearing, elevation and whether it is in view, following \
            the geometry spec (WGS84, no flat-earth shortcut, OpenCV's distortion models).
            """,
        usage: """
            --pois FILE.geojson --position LAT,LON,ALT [--orientation HEADING,PITCH,ROLL] \
            (--camera FILE.yaml [--size WxH] | --hfov DEG --size WxH) [--json] [more options]
            """,
        arguments: [],
        options: ProjectOptions.specs,
        discussion: """
            u and v are null for points behind the camera, within 0.1 m of it, or beyond the lens \
            distortion's valid range; in_view is true when 0 <= u < width and 0 <= v < height.

            EXIT STATUS:
              0   the points were projected
              64  bad command line
              65  an input file is malformed (the message names the file, the line or feature, and the problem)
              66  an input file is missing, a folder or unreadable

            EXAMPLE:
              arcapture project --pois samples/pois/helsinki-senate-square.geojson \\
                  --position 60.16880,24.95200,31.5 --orientation 0,3,0 --hfov 70 --size 1280x720
            """)

    static func run(_ arguments: [String]) async -> ExitStatus {
        let options: ProjectOptions
        do {
            options = try ProjectOptions(ArgumentParser.parse(arguments, spec: spec))
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        do {
            let (file, camera, points) = try options.project()
            var results = points
            let ground = options.groundAltitude
            if options.inViewOnly { results.removeAll { !$0.inView } }
            if let within = options.within { results.removeAll { $0.distance > within } }
            report(file: file, ground: ground, options: options)
            Terminal.out(
                options.json
                    ? JSONOutput.encode(results.map(ProjectedPointReport.init))
                    : ProjectionTable.render(results, camera: camera), terminator: options.json ? "\n" : "")
            return .ok
        } catch {
            Terminal.error(error.description)
            if error.cannotBeOpened { return .noInput }
            return .dataError
        }
    }

    /// Notes on stderr: skipped geometries and the altitude assumed for points without one.
    static func report(file: GeoJSONFile, ground: Double, options: ProjectOptions) {
        for note in file.pointOfInterestNotes(file: options.poisFile) { Terminal.warning(note) }
        if let note = file.placementNote(file: options.poisFile) { Terminal.note("note: \(note)") }
        let withoutAltitude = file.pointsOfInterest.filter { $0.altitude == nil }.count
        guard withoutAltitude > 0 else { return }
        let source =
            options.poiAltitude != nil
            ? "--poi-altitude" : "the device's altitude minus \(FrameIntervalText.rate(options.heightAboveGround)) m"
        Terminal.note(
            "note: \(withoutAltitude) of \(file.pointsOfInterest.count) points give no altitude; they stand at "
                + String(format: "%.2f", ground) + " m (\(source))")
    }
}
