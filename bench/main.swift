import ARCompositor
import ArcaptureCore
import CaptureKit
import Foundation
import JPEGKit

// arcapture's benchmark: what the geometry costs next to the JPEG work every annotated frame does.
//
//   swift run -c release arcapture-bench        (from the package root: it reads samples/)
//
// Each figure is the median of many repetitions, measured in this same run on this machine, so the
// ratios compare like with like. The reference is libjpeg-turbo decoding and re-encoding one
// 1280x720 4:2:0 frame: the floor of annotating JPEG footage, which projection must not approach.

/// The median wall time of `body`, in seconds, over `repetitions` runs after `warmUp` runs.
func median(repetitions: Int, warmUp: Int = 3, _ body: () throws -> Void) rethrows -> Double {
    for _ in 0..<warmUp { try body() }
    var samples: [Double] = []
    samples.reserveCapacity(repetitions)
    for _ in 0..<repetitions {
        let start = ContinuousClock.now
        try body()
        samples.append(start.duration(to: .now).seconds)
    }
    return middle(samples)
}

/// The median of `samples` (not empty).
func middle(_ samples: [Double]) -> Double {
    samples.sorted()[samples.count / 2]
}

/// 10,000 points of interest spread over a 6 km square around Helsinki's Senate Square, at
/// deterministic pseudo-random positions and altitudes.
func makePoints(count: Int) -> [PointOfInterest] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    return (0..<count).map { index in
        PointOfInterest(
            id: "poi-\(index)", name: "Point \(index)", latitude: 60.169 + (next() - 0.5) * 0.054,
            longitude: 24.952 + (next() - 0.5) * 0.108, altitude: index % 3 == 0 ? nil : 20 + next() * 60)
    }
}

/// A 1280x720 4:2:0 frame, encoded at quality 90: the reference JPEG. Its luma is the sample
/// photo (samples/frames/lund-640x480.jpg, a real street scene) doubled in size, so it compresses
/// like camera footage rather than like noise.
func makeReferenceJPEG(encoder: JPEGEncoder, decoder: JPEGDecoder) throws -> [UInt8] {
    let photo = try decoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: "samples/frames/lund-640x480.jpg"))))
    var image = YCbCrImage(width: 1280, height: 720, subsampling: .s420)
    for y in 0..<720 {
        for x in 0..<1280 { image.planes[0][x, y] = photo.planes[0][x / 2, min(y / 2 + 60, 479)] }
    }
    for index in 1...2 {
        for y in 0..<360 {
            for x in 0..<640 { image.planes[index][x, y] = photo.planes[index][x / 2, min(y + 60, 479)] }
        }
    }
    return try encoder.encode(image, quality: 90)
}

// `arcapture-bench --live-1080p`: the live path at 1920x1080 MJPEG, alone in its process, printing
// its peak memory (the main run starts it, so the figure is not the rest of the benchmark's).
if CommandLine.arguments.contains("--live-1080p") {
    let encoder = try JPEGEncoder()
    let decoder = try JPEGDecoder()
    let photo = try decoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: "samples/frames/lund-640x480.jpg"))))
    var image = YCbCrImage(width: 1920, height: 1080, subsampling: .s422)
    for y in 0..<1080 { for x in 0..<1920 { image.planes[0][x, y] = photo.planes[0][x / 3, min(y / 3 + 60, 479)] } }
    for index in 1...2 {
        for y in 0..<1080 {
            for x in 0..<960 { image.planes[index][x, y] = photo.planes[index][x / 3, min(y / 3 + 60, 479)] }
        }
    }
    let jpeg = try encoder.encode(image, quality: 90)
    let result = try LiveBench.run(
        scene: try AnnotationScene(), pixelFormat: .mjpeg, width: 1920, height: 1080, bytes: jpeg, frames: 150)
    print(String(format: "%.1f %d %d", LiveBench.peakMemoryMB(), result.frames, result.dropped))
    exit(0)
}

// `arcapture-bench --serve [SECONDS]`: the live view server alone, to 0, 1, 10 and 50 clients.
if let flag = CommandLine.arguments.firstIndex(of: "--serve") {
    let seconds = CommandLine.arguments.dropFirst(flag + 1).first.flatMap { Double($0) } ?? 10
    let jpeg = try makeReferenceJPEG(encoder: try JPEGEncoder(), decoder: try JPEGDecoder())
    try ServeBench.report(jpeg: jpeg, seconds: seconds)
    exit(0)
}

// `arcapture-bench --splice`: splicing MJPEG with restart markers against the transcode.
if CommandLine.arguments.contains("--splice") {
    try SpliceBench.report()
    exit(0)
}

// `arcapture-bench --telemetry`: reading an hour of DJI subtitles against a second.
if CommandLine.arguments.contains("--telemetry") {
    try TelemetryBench.report()
    exit(0)
}

// `arcapture-bench --durability [FOLDER]`: what flushing each output to the disk costs.
if let flag = CommandLine.arguments.firstIndex(of: "--durability") {
    try DurabilityBench.run(folder: CommandLine.arguments.dropFirst(flag + 1).first ?? ".build/bench-durability")
    exit(0)
}

// `arcapture-bench --annotate-only N [--1080p]`: draw the annotation scene N times and exit, for
// profilers.
if let flag = CommandLine.arguments.firstIndex(of: "--annotate-only") {
    let count = CommandLine.arguments.dropFirst(flag + 1).first.flatMap { Int($0) } ?? 2000
    let hd = CommandLine.arguments.contains("--1080p")
    var image = YCbCrImage(width: hd ? 1920 : 1280, height: hd ? 1080 : 720, subsampling: .s422)
    let scene = try AnnotationScene(width: image.width, height: image.height)
    for _ in 0..<count { scene.draw(on: &image) }
    exit(0)
}

let points = makePoints(count: 10_000)
let camera = CameraModel(
    width: 1280, height: 720, intrinsics: CameraIntrinsics(fx: 914, fy: 914, cx: 640, cy: 360),
    distortion: .plumbBob(k1: -0.05, k2: 0.01, p1: 0, p2: 0, k3: 0))
let pose = DevicePose(
    latitude: 60.16880, longitude: 24.95200, altitude: 31.5,
    orientation: DeviceOrientation(heading: 2, pitch: 3, roll: -1))
var inView = 0
let projection = median(repetitions: 200) {
    let projector = Projector(pose: pose, camera: camera, groundAltitude: 30)
    inView = projector.project(points).filter(\.inView).count
}

let encoder = try JPEGEncoder()
let decoder = try JPEGDecoder()
let jpeg = try makeReferenceJPEG(encoder: encoder, decoder: decoder)
var decoded = YCbCrImage(width: 1280, height: 720, subsampling: .s420)
let transcode = try median(repetitions: 60) {
    try jpeg.withUnsafeBytes { try decoder.decode($0, into: &decoded) }
    _ = try encoder.encode(decoded, quality: 90)
}

// Drawing: the overlay of an annotated 1280x720 4:2:2 frame (the layout USB webcams give) drawn on
// the decoded frame, against decoding and re-encoding that same frame.
var frame422 = YCbCrImage(width: 1280, height: 720, subsampling: .s422)
let jpeg422 = try encoder.encode(
    {
        var image = YCbCrImage(width: 1280, height: 720, subsampling: .s422)
        for y in 0..<720 { for x in 0..<1280 { image.planes[0][x, y] = decoded.planes[0][x, y] } }
        for index in 1...2 {
            for y in 0..<720 { for x in 0..<640 { image.planes[index][x, y] = decoded.planes[index][x, y / 2] } }
        }
        return image
    }(), quality: 90)
let transcode422 = try median(repetitions: 60) {
    try jpeg422.withUnsafeBytes { try decoder.decode($0, into: &frame422) }
    _ = try encoder.encode(frame422, quality: 90)
}
// The whole overlay, as `annotate` draws it on every frame: projection, layout, text (from the
// caches after the first frame), ribbon, ground arrow, markers, labels and the panel.
let scene = try AnnotationScene()
let firstFrame = scene.draw(on: &frame422)
let drawing = median(repetitions: 200) { scene.draw(on: &frame422) }

func milliseconds(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
print("arcapture-bench (\(ProcessInfo.processInfo.activeProcessorCount) cores; medians)")
print("  project 10,000 POIs for one pose:            \(milliseconds(projection))  (\(inView) in view; budget 2 ms)")
print("  libjpeg-turbo decode + encode, 1280x720:     \(milliseconds(transcode))  (\(jpeg.count) bytes)")
print(String(format: "  ratio projection / JPEG decode+encode:       %.3f", projection / transcode))
print(String(format: "  per POI: %.1f ns", projection / Double(points.count) * 1e9))
print("  libjpeg-turbo decode + encode, 1280x720 4:2:2: \(milliseconds(transcode422))")
print(
    "  annotate: \(firstFrame.layout.markers.count) markers, \(firstFrame.layout.labels.count) labels, ribbon, arrow, panel: "
        + "\(milliseconds(drawing))  (\(firstFrame.navigation?.instruction() ?? "no navigation"))")
print(
    String(format: "  ratio drawing / JPEG decode+encode (4:2:2):  %.3f  (target at most 0.05)", drawing / transcode422)
)

// The live path: 1280x720 frames from the scripted camera at 30 fps, annotated by a GeoAR view
// with the same scene (drawn with a 70° field of view) and written as an MJPEG stream, against
// footage annotation of the same frames in this run and the libjpeg-turbo transcode above.
let liveFrames = 300
var plainFrame = YCbCrImage(width: 1280, height: 720, subsampling: .s422)
try jpeg422.withUnsafeBytes { try decoder.decode($0, into: &plainFrame) }
let liveYUYV = try LiveBench.run(
    scene: scene, pixelFormat: .yuyv, width: 1280, height: 720, bytes: LiveBench.yuyv(plainFrame),
    frames: liveFrames)
let liveMJPEG = try LiveBench.run(
    scene: scene, pixelFormat: .mjpeg, width: 1280, height: 720, bytes: jpeg422, frames: liveFrames)
let footagePerFrame = try LiveBench.footage(scene: scene, jpeg: jpeg422, frames: liveFrames)
let interval = 1000.0 / 30
print("  live, 1280x720 at 30 fps from the scripted camera, annotated, written as MJPEG (CPU per frame, all threads):")
for (name, result) in [("YUYV", liveYUYV), ("MJPEG", liveMJPEG)] {
    print(
        "    \(name):  \(milliseconds(result.cpuPerFrame))  "
            + String(format: "ratio to the transcode %.2f", result.cpuPerFrame / transcode422)
            + "; \(result.annotated)/\(result.frames) annotated, \(result.dropped) dropped (target 0); latency median "
            + "\(result.latencyMedian.map(String.init) ?? "?") ms = "
            + String(format: "%.2f", Double(result.latencyMedian ?? 0) / interval)
            + " frame intervals (target at most 1.5), 99th percentile \(result.latency99.map(String.init) ?? "?") ms")
}
print(
    "    footage, the same MJPEG frames, 1 worker: \(milliseconds(footagePerFrame))  "
        + String(
            format: "ratio live MJPEG / footage %.2f (target at most 1.1)", liveMJPEG.cpuPerFrame / footagePerFrame))
let child = Process()
child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
child.arguments = ["--live-1080p"]
let childOutput = Pipe()
child.standardOutput = childOutput
try child.run()
let hd = String(decoding: childOutput.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: " ")
child.waitUntilExit()
print(
    "    1920x1080 MJPEG live, in a process of its own: peak memory \(hd.first ?? "?") MB (target at most 64), "
        + "\(hd.count > 1 ? hd[1] : "?") frames, \(hd.count > 2 ? hd[2].trimmingCharacters(in: .whitespacesAndNewlines) : "?") dropped"
)
