import ArcaptureCore
import CaptureKit
import Foundation
import GeoAR
import LiveViewHTTP
import Positioning

/// `arcapture capture`: stills, time-lapses and streams from a camera.
enum CaptureCommand {
    static let spec = CommandSpec(
        name: "capture",
        overview: """
            Capture stills, time-lapses or a stream from a camera. Frames go to JPEG files named from a \
            template, or to stdout as an MJPEG or Y4M stream; MJPEG from the camera is kept as it is, raw \
            frames are encoded.
            """,
        usage: """
            [--device PATH[,PATH...]] [--count N | --duration TIME] [--every INTERVAL] \
            [--output TEMPLATE | --output - | --output v4l2:NODE] [--format-out mjpeg|y4m|yuyv] \
            [--set NAME=VALUE ...] [more options]
            """,
        arguments: [],
        options: CaptureOptions.specs + LiveOverlayOptions.specs,
        discussion: """
            Files are written whole or not at all (a temporary file, then a rename), also on Ctrl-C and \
            on a full disk. Written file names are printed on stdout.

            EXIT STATUS:
              0    the frames were written (or the program reading the stream closed it)
              64   bad command line, or a --set value the camera does not accept
              69   the camera is missing, not a capture device, or went away (without --reconnect)
              73   an output file cannot be created (said before the camera opens)
              74   writing failed (a full disk, an I/O error), or the stream failed or stalled
              75   the camera is busy
              77   permission denied
              130  interrupted (Ctrl-C)

            EXAMPLES:
              arcapture capture --output still.jpg
              arcapture capture --every 10s --duration 1h --output 'lapse-%Y%m%d-%H%M%S.jpg'
              arcapture capture --output - --duration 10s | ffmpeg -f mjpeg -i - clip.mp4
              arcapture capture --set zoom_absolute=200 --set brightness=60% --output 'zoom-%4n.jpg' --count 5
            """)

    static func run(_ arguments: [String]) async -> ExitStatus {
        let options: CaptureOptions
        let overlay: LiveOverlayOptions
        do {
            let parsed = try ArgumentParser.parse(arguments, spec: spec)
            options = try CaptureOptions(parsed)
            overlay = try LiveOverlayOptions(parsed)
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        return await live(options, overlay: overlay, serving: nil)
    }

    /// Runs a live view: `capture`'s (frames to files or stdout) or, with `serving`, `serve`'s
    /// (frames to a ``LiveViewServer``'s clients until interrupted).
    static func live(_ options: CaptureOptions, overlay: LiveOverlayOptions, serving: ServeSetup?) async -> ExitStatus {
        if overlay.drawsOverlay && options.location == nil {
            Terminal.error(
                "the overlay needs to know where the camera is: add --location (gpsd://, a serial GPS, a track, or LAT,LON,ALT)"
            )
            return .usage
        }
        if overlay.poseSidecar != nil && options.location?.isRecorded != true {
            // A live receiver's fixes are placed by when they arrive; a sidecar's times match
            // nothing live, only a track replayed on the same clock.
            Terminal.error(
                "--pose-sidecar replays with a recorded --location (a GPX or NMEA file) on the same clock; "
                    + "live, use --orientation, --heading-from-course or --imu")
            return .usage
        }
        // Input files are read before the camera is touched: a broken one is said at once.
        let mapData: MapData
        let source: any LocationSource
        do throws(InputFileError) {
            mapData = try overlay.mapData()
            source =
                try options.location?.makeSource(
                    pace: .realTime(speed: 1), poseSidecar: overlay.poseSidecar, csvColumns: options.trackColumns)
                ?? NoPositionSource()
        } catch {
            Terminal.error(error.description)
            return error.cannotBeOpened ? .noInput : .dataError
        }
        for note in mapData.notes { Terminal.warning(note) }
        if overlay.drawsOverlay, let failed = FontCheck.check(mapData) { return failed }
        signal(SIGPIPE, SIG_IGN)  // a closed stream reader is an EPIPE to handle, not a death
        let path = options.devices.first ?? CheckCommand.defaultDevicePath()
        var authorization = CaptureDevice.authorization(for: path)
        if authorization.status == .notDetermined && options.waitSeconds > 0 {
            let (signals, signalled) = AsyncStream.makeStream(of: Void.self)
            let interrupted = await InterruptSignal.handling(
                onSignal: { _ in signalled.yield() },
                body: {
                    await !DeviceWait.wait(for: path, seconds: options.waitSeconds) {
                        for await _ in signals { return }
                    }
                })
            if interrupted { return .interrupted }
            authorization = CaptureDevice.authorization(for: path)
        }
        if let problem = authorization.problem {
            Terminal.error(problem.description)
            return ExitStatus(problem)
        }

        let imu: IIOPoseSource?
        do throws(UsageError) {
            imu = try overlay.imuSource()
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        let handlerQueue = DispatchQueue(label: "arcapture.capture-handlers")
        var configuration = GeoARConfiguration(
            source: .camera(
                CaptureConfiguration(
                    devicePath: path, format: options.format, bufferCount: options.bufferCount,
                    frameTimeout: .milliseconds(Int64(options.timeoutSeconds * 1000)), controls: options.controls,
                    reconnects: options.reconnect)),
            output: .live(
                options.destination,
                LiveCaptureSettings(
                    devices: options.devices, warmUp: options.warmUp, every: options.every.map(Duration.seconds),
                    count: options.count,
                    duration: options.duration.map(Duration.seconds),
                    idleSlowdown: serving?.idleSlowdown == true ? serving?.broadcast : nil,
                    // Someone watching wants the newest frame, not every one late.
                    maxWaitingFrames: serving == nil ? 4 : 1),
                jsonLog: options.jsonLog),
            sidecar: overlay.sidecar, quality: options.quality, camera: overlay.camera, pose: overlay.pose,
            selectsCenter: overlay.selectsCenter, navigates: overlay.navigates, minimap: overlay.minimap,
            handlerQueue: handlerQueue,
            messages: .terminal)
        configuration.restartRows = options.jpeg.restartRows
        configuration.splices = options.jpeg.splices
        let report = PhaseReport(source: source.name)
        var builder = GeoAR(session: ARSession(mapData: mapData), configuration: configuration)
            .onPhaseChange { phase in report.print(phase) }
        if serving != nil {
            // What viewers select in the page (and what --select-center picks) is said in the log,
            // as the page's /events says it: the program hears it through the selection binding.
            let selection = GeoARBinding<Set<String>>([])
            let names = Dictionary(
                mapData.pointsOfInterest.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            selection.onChange(on: handlerQueue) { ids in Terminal.note(selectionLine(ids, names: names)) }
            builder = builder.selectedPOIs(selection)
        }
        let view = builder.present()
        report.view = view
        if let imu {
            Terminal.note("note: orientation from \(imu.name) (uncalibrated: markers fade by its 15° heading accuracy)")
            view.locationManager.poseSources = [imu]
        }
        // The server listens before the camera opens (it opens when the source is assigned), so a
        // port already taken is said without touching the camera.
        var server: LiveViewServer?
        if let serving {
            let model = GeoARLiveViewModel(view: view, device: path, source: source.name, broadcast: serving.broadcast)
            let started = LiveViewServer(
                address: serving.address, broadcast: serving.broadcast, model: model, limits: serving.limits,
                authentication: serving.authentication, tls: serving.tls)
            do {
                try started.start()
            } catch {
                Terminal.error(error.description)
                await view.stop()
                return .unavailable
            }
            server = started
            serving.announce(started.address)
        }
        view.locationManager.locationSource = source

        let stop = StopRequest()
        let summary = await InterruptSignal.handling(
            onSignal: { _ in
                stop.request()
                Task { await view.stop() }
            },
            body: {
                await InterruptSignal.handlingUserSignal(
                    { view.switchToNextCamera() },
                    body: {
                        let progress = ProgressLine()
                        progress.start { progressText(view) }
                        let summary = await view.ended()
                        progress.stop()
                        return summary
                    })
            })
        server?.stop()
        handlerQueue.sync {}  // the last phase lines are out before the summary
        // A server's normal end is a signal (Ctrl-C, systemd's SIGTERM): it exits 0.
        return finish(summary, interrupted: stop.isRequested && serving == nil, overlay: overlay.drawsOverlay)
    }

    /// `selected: Buoy 2 (p2), …` (names and ids, by id), or `selection cleared`.
    private static func selectionLine(_ ids: Set<String>, names: [String: String]) -> String {
        guard !ids.isEmpty else { return "selection cleared" }
        return "selected: " + ids.sorted().map { id in names[id].map { "\($0) (\(id))" } ?? id }.joined(separator: ", ")
    }

    /// The progress line: frames written, the rate, what was lost.
    private static func progressText(_ view: GeoARView) -> String {
        guard let counts = view.liveCounts else { return "starting" }
        let seconds = seconds(view.startedAt.duration(to: .now)) + 0.001
        return String(
            format: "captured %d frames, %.1f fps, %d dropped, %d damaged", counts.written,
            Double(counts.written) / seconds, counts.dropped, counts.damaged)
    }

    /// Prints the summary and the error, and returns the status.
    private static func finish(_ summary: GeoARView.Summary, interrupted: Bool, overlay: Bool) -> ExitStatus {
        if let counts = summary.live {
            var line = "captured \(counts.written) frame\(counts.written == 1 ? "" : "s")"
            if overlay {
                line += " (\(counts.annotated) annotated, \(counts.withoutPose) without a pose passed through"
                if let splicing = counts.splicing.summary { line += "; " + splicing }
                line += ")"
            }
            line += ", \(counts.dropped) dropped"
            if counts.dropped > 0 {
                line +=
                    " (\(counts.dropped - counts.droppedBehind) skipped by the driver, "
                    + "\(counts.droppedBehind) because writing fell behind)"
            }
            line += ", \(counts.damaged) damaged"
            if counts.warmUp > 0 { line += ", \(counts.warmUp) skipped while the camera settled" }
            if overlay, let median = counts.latencyMedianMilliseconds, let p99 = counts.latency99Milliseconds {
                line += "; capture to written \(median) ms median, \(p99) ms 99th percentile"
            }
            Terminal.note(line)
        }
        if interrupted {
            Terminal.error("interrupted")
            return .interrupted
        }
        switch summary.liveOutcome {
        case .completed, .interrupted:
            return .ok
        case .readerClosed:
            Terminal.note("note: the program reading the stream closed it")
            return .ok
        case .failed(let error):
            Terminal.error(error.description)
            return ExitStatus(error)
        case .outputFailed(let error):
            Terminal.error(error.description)
            return ExitStatus(error)
        case .streamFailed(let message):
            Terminal.error(message)
            return .ioError
        case nil:
            break
        }
        // The view failed before the camera opened.
        guard case .failed(let error) = summary.ending else { return .ok }
        Terminal.error(error.description)
        switch error {
        case .mapData(let file), .footage(let file): return file.cannotBeOpened ? .noInput : .dataError
        case .cameraUnauthorized, .camera: return .unavailable
        case .output(let output): return ExitStatus(output)
        case .writeFailed(_, let cannotCreate): return cannotCreate ? .cannotCreate : .ioError
        case .configuration: return .failure
        }
    }
}
