import ARCompositor
import CaptureKit
import Foundation

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
        let elapsed = start.duration(to: .now)
        samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    samples.sort()
    return samples[samples.count / 2]
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

// Drawing: the shapes of an annotated 1280x720 4:2:2 frame (the layout USB webcams give) drawn on
// the decoded frame, against decoding and re-encoding that same frame. Text is not drawn yet.
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
let painter = Painter()
let markers: [SIMD2<Double>] = (0..<20).map { index -> SIMD2<Double> in
    let column = Double(index)
    let row = Double(index % 5)
    return SIMD2(60 + column * 60.5, 300 + row * 40.25)
}
let ribbon = Shape.polygon([SIMD2(420, 720), SIMD2(860, 720), SIMD2(662, 430), SIMD2(618, 430)])
let arrow = Shape.polygon([
    SIMD2(640, 520), SIMD2(700, 470), SIMD2(700, 500), SIMD2(760, 500), SIMD2(760, 540), SIMD2(700, 540),
    SIMD2(700, 570),
])
// Plates and dots are the same shape every frame: rasterised once as masks and stamped, as the
// compositor does; the ribbon and the arrow change with the pose and are rasterised each frame.
let plate = painter.mask(
    of: .roundedRectangle(x: 0.5, y: 0.5, width: 120, height: 26, radius: 6), width: 122, height: 28)
let dots = (0..<4).map { index in
    let radius = 8 + Double(index)
    let size = Int((radius + 2) * 2) + 2
    let center = SIMD2(Double(size) / 2, Double(size) / 2)
    return (
        fill: painter.mask(of: .circle(center: center, radius: radius), width: size, height: size),
        ring: painter.mask(of: .ring(center: center, radius: radius, width: 2), width: size, height: size), size: size
    )
}
let drawing = median(repetitions: 200) {
    painter.fill(ribbon, color: RGBAColor(red: 0x1D, green: 0x9B, blue: 0xF0, alpha: 140), on: &frame422)
    for (index, point) in markers.enumerated() {
        painter.stamp(
            plate, x: Int(point.x) + 14, y: Int(point.y) - 13, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 150),
            on: &frame422)
        let dot = dots[index % 4]
        let x = Int(point.x) - dot.size / 2
        let y = Int(point.y) - dot.size / 2
        painter.stamp(dot.fill, x: x, y: y, color: RGBAColor(red: 0xE6, green: 0x39, blue: 0x46), on: &frame422)
        painter.stamp(dot.ring, x: x, y: y, color: .white, on: &frame422)
    }
    painter.fill(arrow, color: .white, on: &frame422)
    painter.fill(
        .roundedRectangle(x: 20, y: 20, width: 360, height: 80, radius: 12),
        color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 170), on: &frame422)
}

func milliseconds(_ seconds: Double) -> String { String(format: "%.3f ms", seconds * 1000) }
print("arcapture-bench (\(ProcessInfo.processInfo.activeProcessorCount) cores; medians)")
print("  project 10,000 POIs for one pose:            \(milliseconds(projection))  (\(inView) in view; budget 2 ms)")
print("  libjpeg-turbo decode + encode, 1280x720:     \(milliseconds(transcode))  (\(jpeg.count) bytes)")
print(String(format: "  ratio projection / JPEG decode+encode:       %.3f", projection / transcode))
print(String(format: "  per POI: %.1f ns", projection / Double(points.count) * 1e9))
print("  libjpeg-turbo decode + encode, 1280x720 4:2:2: \(milliseconds(transcode422))")
print("  draw 20 markers + plates, ribbon, arrow, panel: \(milliseconds(drawing))  (no text yet)")
print(
    String(format: "  ratio drawing / JPEG decode+encode (4:2:2):  %.3f  (target at most 0.05)", drawing / transcode422)
)
