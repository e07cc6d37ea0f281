import ARCompositor
import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import GeoAR
import Positioning
import Synchronization

// geoar-demo: the seed's example on Linux. A session loads map data once; a view is described with
// its handlers and bindings and presented; when it is loaded, a location source is assigned, and
// only then does capture start. Half-way through, a point of interest is selected from code, and
// the view highlights it from its next frame.
//
//   swift run geoar-demo               the sample harbour footage, with its GPS track (no camera)
//   swift run geoar-demo --camera      /dev/video0, positioned by gpsd on this machine (60 frames)

let useCamera = CommandLine.arguments.contains("--camera")
// The repository's samples, found from this file (samples/geoar-demo/Sources/geoar-demo/main.swift).
let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
func sample(_ path: String) -> String { samples.appendingPathComponent(path).path }

let output = FileManager.default.currentDirectoryPath + "/geoar-demo-output"
try? FileManager.default.removeItem(atPath: output)
try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)

// Own the session above the view: it loads the map data once, for every view of the program.
let session = ARSession(
    files: MapDataFiles(
        pointsOfInterest: sample("pois/helsinki_center_osm_pois.geojson"),
        route: sample("routes/west-harbour-tour.geojson"), style: sample("styles/night.json")))

let handlers = DispatchQueue(label: "geoar-demo.handlers")
var configuration: GeoARConfiguration
let location: @Sendable () throws -> any LocationSource
if useCamera {
    configuration = GeoARConfiguration(
        source: .camera(CaptureConfiguration(devicePath: "/dev/video0")),
        output: .live(
            .files(OutputTemplate(pattern: output + "/%03n.jpg")),
            LiveCaptureSettings(devices: ["/dev/video0"], count: 60), jsonLog: nil),
        camera: CameraGeometry(horizontalFieldOfView: 70), handlerQueue: handlers)
    location = { GPSDLocationSource() }
} else {
    let start = UTCTime.parse("2022-08-14T11:12:32Z") ?? Date()
    configuration = GeoARConfiguration(
        source: .footage(path: sample("footage/harbour.mjpeg"), clock: FootageClock(start: start, framesPerSecond: 8)),
        output: .footage(.files(OutputTemplate(pattern: output + "/%03n.jpg")), workers: 2),
        sidecar: output + "/frames.jsonl",
        camera: CameraGeometry(calibrationFile: sample("footage/harbour-camera.yaml"), heightAboveGround: 3),
        pose: LivePoseTracker.Options(orientation: .course), handlerQueue: handlers)
    location = {
        RecordedLocationSource(track: try RecordedTrack.load(sample("footage/harbour.gpx")), pace: .frameDriven)
    }
}

let navigation = GeoARBinding<NavigationInfo?>(nil)
let selection = GeoARBinding<Set<String>>([])
let positions = Mutex(0)

let view = GeoAR(session: session, configuration: configuration)
    .onLoaded { view in
        print("loaded: \(session.mapData?.pointsOfInterest.count ?? 0) points of interest")
        // The view cannot position itself without a location source; capture starts now.
        do {
            view.locationManager.locationSource = try location()
        } catch {
            print("no location source: \(error)")
        }
    }
    .onFailed { print("failed: \($0)") }
    .onPhaseChange { print("phase: \($0)") }
    .userCoordinate { coordinate in
        let count = positions.withLock { count in
            count += 1
            return count
        }
        if count % 8 == 1 {
            print(String(format: "position %d: %.6f, %.6f", count, coordinate.latitude, coordinate.longitude))
        }
        // Half-way through the footage (or the camera's 60 frames), select Cafe Ekberg from code.
        if count == (useCamera ? 30 : 24) {
            print("selecting Cafe Ekberg from code")
            selection.value = ["31"]
        }
    }
    .navigationInfo(navigation)
    .selectedPOIs(selection)
    .present()

// The binding changes with every frame (the distance left shrinks); say it when the words change.
let said = Mutex("")
navigation.onChange(on: handlers) { info in
    let text = info.map { "\($0.instruction()), \($0.summary())" } ?? "none"
    if said.withLock({ $0 }) != text {
        said.withLock { $0 = text }
        print("navigation: \(text)")
    }
}

let summary = await view.ended()
handlers.sync {}
switch summary.ending {
case .failed(let error): print("ended: failed: \(error)")
default: print("ended: \(summary.ending)")
}
let written = summary.footage?.progress.written ?? summary.live?.written ?? 0
print("wrote \(written) annotated frames to \(output)/")
