import ARCompositor  // NavigationInfo
import Footage  // FootageClock
import Foundation
import GeoAR
import Positioning  // RecordedTrack, RecordedLocationSource

// Own the session above the view: it loads the map data once, for every view of the program.
let session = ARSession(
    files: MapDataFiles(
        pointsOfInterest: "pois/helsinki_center_osm_pois.geojson", route: "routes/west-harbour-tour.geojson"))
let navigation = GeoARBinding<NavigationInfo?>(nil)
let track = try RecordedTrack.load("footage/harbour.gpx")
let output = FileManager.default.temporaryDirectory.appendingPathComponent("geoar-\(UUID())")
try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

// The sample harbour footage (its first frame at 2022-08-14T11:12:32Z, 8 frames a second), its
// camera calibrated; for a camera, the source is .camera(CaptureConfiguration(devicePath:
// "/dev/video0")) and the output .live(…).
let configuration = GeoARConfiguration(
    source: .footage(
        path: "footage/harbour.mjpeg",
        clock: FootageClock(start: Date(timeIntervalSince1970: 1_660_475_552), framesPerSecond: 8)),
    output: .footage(.files(OutputTemplate(pattern: output.path + "/%03n.jpg")), workers: 2),
    camera: CameraGeometry(calibrationFile: "footage/harbour-camera.yaml", heightAboveGround: 3),
    pose: LivePoseTracker.Options(orientation: .course))

let view = GeoAR(session: session, configuration: configuration)
    .onLoaded { view in
        // the AR scene cannot position itself without a location source
        view.locationManager.locationSource = RecordedLocationSource(track: track, pace: .frameDriven)
    }
    .onFailed { print("Failed to load the AR view: \($0)") }
    .navigationInfo(navigation)
    .present()

navigation.onChange { info in
    if let info { print("\(Int(info.remainingDistance)) m left") }
}

// Handlers run on the main queue, which a program runs while its top level awaits.
let summary = await view.ended()
print("ended: \(summary.ending), \(summary.footage?.progress.written ?? 0) frames in \(output.path)")
