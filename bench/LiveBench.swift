import ARCompositor
import ArcaptureCore
import CaptureKit
import Footage
import Foundation
@_spi(Testing) import GeoAR
import Positioning
@_spi(Testing) import ScriptedCamera

/// The live path, measured: frames from the scripted camera at 30 fps, posed, annotated by a
/// `GeoARView` with the benchmark's scene (20 POIs, the route with a turn unless `withRoute` is
/// false, the panel) and written
/// as an MJPEG stream (to /dev/null), as `arcapture capture --output -` does.
///
/// CPU time is the whole process's (every thread) less the thread that plays the camera, per frame:
/// comparable with footage's, measured the same way on the same frames in the same run.
enum LiveBench {
    struct Result {
        var frames: Int
        /// Frames the camera had no free buffer for, plus frames the capture dropped.
        var dropped: Int
        var annotated: Int
        var cpuPerFrame: Double
        var latencyMedian: Int?
        var latency99: Int?
    }

    /// A scripted camera offering exactly `pixelFormat` at `width`x`height` and 30 fps.
    static func camera(_ pixelFormat: FourCC, width: UInt32, height: UInt32) -> ScriptedDeviceFactory {
        var script = ScriptedVideoDevice.Script()
        script.formats = [
            SupportedFormat(
                pixelFormat: PixelFormatDescription(
                    fourCC: pixelFormat, description: "\(pixelFormat)", isCompressed: pixelFormat == .mjpeg),
                frameSizes: [
                    SupportedFrameSize(
                        sizes: .discrete(FrameSize(width: width, height: height)),
                        frameIntervals: .discrete(ScriptedVideoDevice.rates([30])))
                ])
        ]
        script.initialFormat = V4L2Format(pixelFormat: pixelFormat, width: width, height: height)
        return ScriptedDeviceFactory(script: script)
    }

    /// Runs `frames` frames of `bytes` through a view at 30 fps.
    static func run(
        scene: AnnotationScene, pixelFormat: FourCC, width: UInt32, height: UInt32, bytes: [UInt8], frames: Int,
        splices: Bool = true, withRoute: Bool = true
    ) throws -> Result {
        let factory = camera(pixelFormat, width: width, height: height)
        var configuration = GeoARConfiguration(
            source: .camera(
                CaptureConfiguration(
                    devicePath: "/dev/video-bench",
                    format: FormatRequest(pixelFormat: pixelFormat, size: FrameSize(width: width, height: height)),
                    bufferCount: 4, frameTimeout: .seconds(60))),
            output: .live(
                .mjpegStream, LiveCaptureSettings(devices: ["/dev/video-bench"], count: frames), jsonLog: nil),
            camera: CameraGeometry(horizontalFieldOfView: 70, heightAboveGround: 1.5),
            pose: LivePoseTracker.Options(orientation: .fixed(scene.pose.orientation)),
            handlerQueue: DispatchQueue(label: "bench.handlers"), messages: .silent)
        configuration.splices = splices
        configuration.cameraHooks = CameraHooks(
            makeSession: { factory.makeSession(devicePath: "/dev/video-bench") },
            authorize: { Authorization(path: $0, status: .authorized, problem: nil) })
        let session = ARSession(
            mapData: MapData(pointsOfInterest: scene.points, route: withRoute ? scene.route : nil))
        let view = GeoARView(frame: .full, session: session, configuration: configuration)
        let running = DispatchSemaphore(value: 0)
        view.onPhaseChange { if $0 == .running { running.signal() } }
        view.present()
        guard
            let position = GeodeticCoordinate(
                latitude: scene.pose.latitude, longitude: scene.pose.longitude, altitude: scene.pose.altitude)
        else { throw SceneError(what: "the scene's position") }
        view.locationManager.locationSource = FixedLocationSource(position)
        running.wait()
        guard let device = factory.latest else { throw SceneError(what: "the scripted camera") }

        // The stream goes to /dev/null while the run lasts (nothing else prints meanwhile).
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        let null = open("/dev/null", O_WRONLY)
        dup2(null, STDOUT_FILENO)
        let before = processCPU()
        let emitter = Locked((missed: 0, cpu: 0.0))
        let emitted = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let interval: Int64 = 1_000_000_000 / 30
            let start = MonotonicClock.nanoseconds()
            var missed = 0
            for index in 0..<frames {
                let due = start + Int64(index) * interval
                let wait = due - MonotonicClock.nanoseconds()
                if wait > 0 { usleep(UInt32(wait / 1000)) }
                if !device.emit(bytes, sequence: UInt32(index), timestampNanoseconds: MonotonicClock.nanoseconds()) {
                    missed += 1
                }
            }
            let cpu = threadCPU()
            emitter.withLock { $0 = (missed, cpu) }
            emitted.signal()
        }
        emitted.wait()
        let ended = DispatchSemaphore(value: 0)
        let summary = Locked<GeoARView.Summary?>(nil)
        Task {
            let result = await view.ended()
            summary.withLock { $0 = result }
            ended.signal()
        }
        // The capture ends at its count; frames the camera could not take never arrive.
        let (missed, emitterCPU) = emitter.withLock { $0 }
        if missed > 0 { Task { await view.stop() } }
        ended.wait()
        let after = processCPU()
        fflush(nil)
        dup2(saved, STDOUT_FILENO)
        close(null)
        close(saved)
        guard let counts = summary.withLock({ $0 })?.live else { throw SceneError(what: "the capture's counts") }
        let written = max(counts.written, 1)
        return Result(
            frames: counts.written, dropped: missed + counts.dropped, annotated: counts.annotated,
            cpuPerFrame: (after - before - emitterCPU) / Double(written),
            latencyMedian: counts.latencyMedianMilliseconds, latency99: counts.latency99Milliseconds)
    }

    /// CPU per frame annotating the same frames as footage (MJPEG in, MJPEG out, one worker).
    static func footage(scene: AnnotationScene, jpeg: [UInt8], frames: Int) throws -> Double {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).mjpeg")
        defer { try? FileManager.default.removeItem(at: file) }
        var stream = [UInt8]()
        stream.reserveCapacity(jpeg.count * frames)
        for _ in 0..<frames { stream += jpeg }
        try Data(stream).write(to: file)
        let reader = try FootageReader(path: file.path)
        let settings = AnnotationSettings(
            pointsOfInterest: scene.points, route: scene.route, style: OverlayStyleFile(), banner: nil, cameraFile: nil,
            horizontalFieldOfView: 70, heightAboveGround: 1.5, quality: 90, destination: .mjpegStream)
        let sink = try FootageSink(destination: .mjpegStream, frameRate: (30, 1))
        let pipeline = FootagePipeline(
            reader: reader, settings: settings, poses: .fixed(scene.pose, nil), route: scene.route, sink: sink,
            workers: 1)
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        let null = open("/dev/null", O_WRONLY)
        dup2(null, STDOUT_FILENO)
        let before = processCPU()
        let summary = pipeline.run()
        let after = processCPU()
        fflush(nil)
        dup2(saved, STDOUT_FILENO)
        close(null)
        close(saved)
        return (after - before) / Double(max(summary.progress.written, 1))
    }

    /// This process's CPU seconds so far (user and system, every thread).
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The calling thread's CPU seconds so far.
    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The process's peak resident memory in MB (VmHWM).
    static func peakMemoryMB() -> Double { memoryMB("VmHWM") }

    /// The process's resident memory now in MB (VmRSS).
    static func residentMB() -> Double { memoryMB("VmRSS") }

    /// A `/proc/self/status` memory field (`VmHWM`, `VmRSS`) in MB; 0 when it cannot be read.
    private static func memoryMB(_ field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kilobytes / 1024
    }

    /// A packed YUYV frame from 4:2:2 planes.
    static func yuyv(_ image: YCbCrImage) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: image.width * image.height * 2)
        for y in 0..<image.height {
            for x in stride(from: 0, to: image.width, by: 2) {
                let offset = (y * image.width + x) * 2
                bytes[offset] = image.planes[0][x, y]
                bytes[offset + 1] = image.planes[1][x / 2, y]
                bytes[offset + 2] = image.planes[0][x + 1, y]
                bytes[offset + 3] = image.planes[2][x / 2, y]
            }
        }
        return bytes
    }
}
