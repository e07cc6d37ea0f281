import ARCompositor  // NavigationInfo
import Footage  // FootageClock
import Foundation
import GeoAR
import Positioning  // RecordedTrack, RecordedLocationSource

// geoar-async: geoar-demo's view in structured concurrency. No handler queue to run and no
// callbacks: the program follows the view's phases, positions and navigation as asynchronous
// sequences, each in a child task, and runs the view with run(), which presents it and returns
// when it ends (cancelling its task would stop it, camera closed and files whole, as a service's
// run() is stopped). The three loops print as events come, so their lines interleave.
//
//   swift run geoar-async              the sample harbour footage, with its GPS track

// The repository's samples, found from this file (samples/geoar-demo/Sources/geoar-async/main.swift).
let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
func sample(_ path: String) -> String { samples.appendingPathComponent(path).path }

let output = FileManager.default.currentDirectoryPath + "/geoar-async-output"
try? FileManager.default.removeItem(atPath: output)
try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)

let session = ARSession(
    files: MapDataFiles(
        pointsOfInterest: sample("pois/helsinki_center_osm_pois.geojson"),
        route: sample("routes/west-harbour-tour.geojson")))
let track = try RecordedTrack.load(sample("footage/harbour.gpx"))
let configuration = GeoARConfiguration(
    source: .footage(
        path: sample("footage/harbour.mjpeg"),
        clock: FootageClock(start: Date(timeIntervalSince1970: 1_660_475_552), framesPerSecond: 8)),
    output: .footage(.files(OutputTemplate(pattern: output + "/%03n.jpg")), workers: 2),
    sidecar: output + "/frames.jsonl",
    camera: CameraGeometry(calibrationFile: sample("footage/harbour-camera.yaml"), heightAboveGround: 3),
    pose: LivePoseTracker.Options(orientation: .course))

let navigation = GeoARBinding<NavigationInfo?>(nil)
let selection = GeoARBinding<Set<String>>([])
// Built, not presented: the sequences are taken first, so they hear the first phase too.
let view = GeoAR(session: session, configuration: configuration)
    .navigationInfo(navigation)
    .selectedPOIs(selection)
    .build()
let phases = view.phases
let positions = view.userCoordinates
let instructions = navigation.changes

let summary = await withTaskGroup(of: Void.self) { group in
    group.addTask {
        for await phase in phases {
            print("phase: \(phase)")
            // The view cannot position itself without a location source; frames are read now.
            if phase == .waitingForLocationSource {
                view.locationManager.locationSource = RecordedLocationSource(track: track, pace: .frameDriven)
            }
        }
    }
    group.addTask {
        var count = 0
        for await _ in positions {
            count += 1
            // Half-way through the footage, select Cafe Ekberg from code: labelled from the next frame.
            if count == 24 {
                print("selecting Cafe Ekberg from code")
                selection.value = ["31"]
            }
        }
        print("positions: \(count)")
    }
    group.addTask {
        // The distance left shrinks with every frame: say it when the words change.
        var said = ""
        for await info in instructions {
            let text = info.map { "\($0.instruction()), \($0.summary())" } ?? "none"
            if text != said {
                said = text
                print("navigation: \(text)")
            }
        }
    }
    let summary = await view.run()
    // The view's own sequences end with it; a binding's ends when its task is cancelled.
    group.cancelAll()
    return summary
}
print("ended: \(summary.ending)")
print("wrote \(summary.footage?.progress.written ?? 0) annotated frames to \(output)/")
