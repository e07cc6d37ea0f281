import ARCompositor
import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import GeoAR
import Positioning

/// `arcapture annotate FOOTAGE`: annotate every frame of an MJPEG stream, a folder of JPEGs or a
/// Y4M file, with poses from a GPS track (or, for a folder of geotagged photos, from each photo),
/// on a pool of workers, writing frames in input order.
enum AnnotateFootage {
    /// x264's rate factor and preset when none is given: the library's standard encoding's.
    private static let standardH264: (crf: Double, preset: String) = {
        if case .h264(let crf, let preset, _) = VideoEncoding.standard { return (crf, preset) }
        return (20, "veryfast")  // unreachable while the standard encoding is H.264
    }()

    static let track = Option.text(
        "track", "FILE",
        help:
            "Footage: a track giving each frame's position (GPX, KML/KMZ, FIT, CSV, NMEA, a DJI .SRT or a video's "
            + "telemetry; gzip-compressed too).")
    static let format = Option.text(
        "format", "mjpeg|y4m|jpeg|mp4|mov|mkv|yuyv",
        help: "Footage: the output's kind (else from --output's name); yuyv or mjpeg for a virtual camera.")
    static let codec = Option.text(
        "codec", "h264|mjpeg|prores|qtrle|png|vp9", defaultText: "h264",
        help:
            "Footage to a video file (.mp4, .mov, .mkv): H.264 (libx264) or Motion JPEG (at --quality); with --overlay-only, ProRes 4444, QuickTime Animation or PNG in .mov, VP9 in .webm."
    )
    static let overlayOnly = Flag(
        "overlay-only",
        help:
            "Footage: write only the drawing, with alpha, at the footage's size, rate and timing (an editor's overlay track): FILE.mov (ProRes 4444), FILE.webm (VP9) or overlay/%05n.png."
    )
    static let crf = Option.number(
        "crf", "N", in: 0...51, defaultText: Option<Double>.words(standardH264.crf),
        help: "Footage to H.264: x264's constant rate factor, 0-51 (lower is better).")
    static let preset = Option.text(
        "preset", "NAME", defaultText: standardH264.preset,
        help: "Footage to H.264: x264's preset, ultrafast ... veryslow (speed against size).")
    static let x264Parameters = Option.text(
        "x264-params", "KEY=VALUE:...",
        help:
            "Footage to H.264: x264's own options over the preset's, as ffmpeg's -x264-params (threads=1:rc-lookahead=0:bframes=0 for less memory)."
    )
    static let workers = Option.integer(
        "workers", "N", in: 1...256, defaultText: "one per core", help: "Footage: frames drawn in parallel.")
    static let minimap = OverlayOptions.minimap.described(
        "Footage: a plan view at the top right of each frame, heading-up.")
    static let sidecar = OverlayOptions.sidecar.described(
        "Footage: one JSON line per frame: its time, the pose used, the POIs drawn and where.")
    static let batch = Option.text(
        "batch", "MANIFEST",
        help: "Footage: annotate every row of a manifest (CSV or JSON lines: footage, track, output, options).")
    static let shard = Option.text(
        "shard", "K/N", help: "With --batch: only the rows whose number mod N is K (a job array's task).")
    static let report = Option.text(
        "report", "FILE.json", help: "With --batch: a JSON account of every row, rewritten after each.")
    static let passThrough = Flag(
        "pass-through",
        help: "Footage: write the frames even when the track gives none of them a pose (else an error, 1).")
    static let strict = Flag(
        "strict",
        help:
            "A --pois feature that cannot be read, or a video cut short (fewer frames than its index promises), is an "
            + "error, 65, not a warning.")

    /// The options footage adds to `annotate`'s.
    static let specs: [OptionSpec] =
        [
            track.spec, TrackColumnsOption.option.spec, format.spec, codec.spec, overlayOnly.spec, crf.spec,
            preset.spec, x264Parameters.spec,
            workers.spec, minimap.spec,
            sidecar.spec, batch.spec, shard.spec, report.spec, passThrough.spec, strict.spec,
        ] + FootageTimeOptions.specs + PoseOptions.specs.filter { $0.name != PoseOptions.orientation.name }

    static func run(_ parsed: ParsedArguments, input: String, chapters: [String] = []) async -> ExitStatus {
        let settingsOptions: AnnotateSettings
        let time: FootageTimeOptions
        let poseOptions: PoseOptions
        let destination: FootageDestination
        let workers: Int
        let output: String
        let cameraSetup: (horizontalFieldOfView: Double, heightAboveGround: Double, fromPhotos: Bool)
        let trackColumns: CSVColumnMap?
        do throws(UsageError) {
            guard let given = parsed.text(AnnotateSettings.output) else {
                throw UsageError(
                    "footage needs --output: FILE.mp4, FILE.mkv, FILE.mjpeg, FILE.y4m, frames/%05n.jpg, - for stdout, or v4l2:/dev/videoN for a virtual camera"
                )
            }
            output = given
            settingsOptions = try AnnotateSettings(parsed, input: input)
            time = try FootageTimeOptions(parsed)
            poseOptions = try PoseOptions(parsed)
            trackColumns = try parsed.value(TrackColumnsOption.option)
            if trackColumns != nil, !parsed.isGiven(Self.track) {
                throw UsageError("--track-columns says where a CSV --track's columns are; give the --track")
            }
            let overlayOnly = parsed.isSet(Self.overlayOnly)
            let encoding = try videoEncoding(parsed, quality: settingsOptions.quality, overlayOnly: overlayOnly)
            do {
                destination =
                    overlayOnly
                    ? try FootageDestination(overlayOutput: given, format: parsed.text(Self.format), encoding: encoding)
                    : try FootageDestination(output: given, format: parsed.text(Self.format), encoding: encoding)
            } catch {
                throw UsageError(error.description)
            }
            workers = try parsed.value(Self.workers) ?? ProcessInfo.processInfo.activeProcessorCount
            guard parsed.isGiven(ProjectOptions.pois) else { throw UsageError("--pois FILE.geojson is required") }
            // A folder of photos may give each photo's own field of view, from its EXIF lens data.
            var isDirectory: ObjCBool = false
            let isFolder =
                FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) && isDirectory.boolValue
            switch (parsed.text(ProjectOptions.camera), try parsed.value(ProjectOptions.hfov)) {
            case (nil, nil) where !isFolder:
                throw UsageError(
                    "a camera is required: --camera FILE.yaml or --hfov DEGREES (only a folder of photos gives its own, "
                        + "each photo's from its EXIF lens data)")
            case (.some, .some): throw UsageError("--camera and --hfov are alternatives; give one")
            default: break
            }
            // The ranges `project` checks; footage has no --position, so no ProjectOptions.
            cameraSetup = (
                try parsed.value(ProjectOptions.hfov) ?? OverlayOptions.hfov.defaultValue,
                try parsed.value(ProjectOptions.heightAboveGround),
                !parsed.isGiven(ProjectOptions.hfov) && !parsed.isGiven(ProjectOptions.camera)
            )
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        // Found out before any work; a numbered frame's name is known only when it is written
        // (the sink refuses it then, and stops the run there, without --force).
        for path in [output, parsed.text(Self.sidecar)].compactMap({ $0 }) where path != "-" {
            if OutputPathKind(path: path).isReplaced, !parsed.isSet(AnnotateSettings.force) {
                Terminal.error("\(path) exists; use --force to overwrite it")
                return .cannotCreate
            }
        }
        if output == "-" { signal(SIGPIPE, SIG_IGN) }  // a closed stream reader is an EPIPE to handle, not a death
        // Ctrl-C stops reading; the frames in flight are finished and written, and the output,
        // whole, holds every frame up to there.
        let stop = StopRequest()
        return await InterruptSignal.handling(
            onSignal: { _ in
                // Said at once: reading a pipe, the stop comes only with the next frame or the end
                // of the input, and the user should know the Ctrl-C was seen.
                if stop.request() {
                    Terminal.note("note: stopping (Ctrl-C): the frames read so far are finished and written")
                }
            },
            body: {
                // Said, since nothing else is until a reader comes (Ctrl-C ends the wait).
                if OutputPathKind.isNamedPipe(output) {
                    Terminal.note("note: \(output) is a named pipe: writing starts when a reader opens it")
                }
                do throws(InputFileError) {
                    return try annotate(
                        parsed, input: input, chapters: chapters, settingsOptions: settingsOptions, time: time,
                        poseOptions: poseOptions, trackColumns: trackColumns,
                        destination: destination, workers: workers, output: output, cameraSetup: cameraSetup,
                        interrupted: { stop.isRequested })
                } catch {
                    Terminal.error(error.description)
                    return error.cannotBeOpened ? .noInput : .dataError
                }
            })
    }

    private static func annotate(
        _ parsed: ParsedArguments, input: String, chapters: [String], settingsOptions: AnnotateSettings,
        time: FootageTimeOptions,
        poseOptions: PoseOptions, trackColumns: CSVColumnMap?, destination: FootageDestination, workers: Int,
        output: String,
        cameraSetup: (horizontalFieldOfView: Double, heightAboveGround: Double, fromPhotos: Bool),
        interrupted: @escaping @Sendable () -> Bool
    ) throws(InputFileError) -> ExitStatus {
        // The map data: the POIs (with what their file held that is not one), the style with its
        // selection resolved, the route.
        let poisFile = parsed.text(ProjectOptions.pois) ?? ""
        let pois = try GeoJSONFile(contentsOf: poisFile, strict: parsed.isSet(Self.strict))
        for note in pois.pointOfInterestNotes(file: poisFile) { Terminal.warning(note) }
        if let note = pois.placementNote(file: poisFile) { Terminal.note("note: \(note)") }
        var style = try settingsOptions.loadStyle()
        SelectedPOIs.resolve(&style, among: pois.pointsOfInterest)
        let route = try settingsOptions.loadRoute()
        // Positions: one fixed place (a camera on a mast), a track, or the footage's own.
        let positions: FootagePosePlan.Positions
        if let positionText = parsed.text(ProjectOptions.position) {
            guard !parsed.isGiven(Self.track) else {
                Terminal.error("--position and --track are alternatives: one fixed pose, or a track to follow")
                return .usage
            }
            guard let position = GeodeticCoordinate(parsing: positionText), position.altitude != nil else {
                Terminal.error(
                    "--position must be LAT,LON,ALT (metres above the WGS84 ellipsoid), not '\(positionText)'")
                return .usage
            }
            positions = .fixed(position)
        } else if let trackPath = parsed.text(Self.track) {
            positions = .track(try TrackFile.load(trackPath, csvColumns: trackColumns))
        } else {
            positions = .footage
        }
        var job = FootageJob(
            input: input, timing: time.timing, poses: poseOptions.plan(positions),
            map: MapData(
                pointsOfInterest: pois.pointsOfInterest, route: route, style: style,
                banner: settingsOptions.banner ?? style.banner),
            camera: CameraGeometry(
                calibrationFile: parsed.text(ProjectOptions.camera),
                horizontalFieldOfView: cameraSetup.horizontalFieldOfView,
                heightAboveGround: cameraSetup.heightAboveGround),
            output: destination, sidecar: parsed.text(Self.sidecar), workers: workers)
        job.chapters = chapters
        if cameraSetup.fromPhotos {
            job.camera.fieldOfViewFromPhotos = true
            Terminal.note(
                "note: the field of view from each photo's EXIF lens data (its 35 mm equivalent focal length, else "
                    + "its focal length on its sensor's width); a photo without is passed through unannotated "
                    + "(--hfov or --camera overrides them all)")
        }
        job.quality = settingsOptions.quality
        job.restartRows = settingsOptions.jpeg.restartRows
        job.splices = settingsOptions.jpeg.splices
        job.minimap = parsed.isSet(Self.minimap) ? MapRenderer.Options() : nil
        job.replacing = parsed.isSet(AnnotateSettings.force)
        job.passesThroughUnposed = parsed.isSet(Self.passThrough)
        let prepared: PreparedFootageJob
        do {
            prepared = try job.prepare(messages: .terminal)
        } catch {
            return refuse(error)
        }
        Terminal.note(FootageTimeOptions.note(prepared))
        let started = ContinuousClock.now
        // Progress on a terminal: frames done of the total, the rate, the time left, what was skipped.
        let total = prepared.info.frameCount
        let approximate = prepared.isFrameCountEstimated ? "≈" : ""
        let progress = ProgressLine()
        progress.start {
            let done = prepared.progress
            let rate = Double(done.finished) / max(seconds(started.duration(to: .now)), 1e-9)
            let left = rate > 0 ? Double(max(0, total - done.finished)) / rate : 0
            let position =
                total > 0
                ? "frame \(done.finished)/\(approximate)\(total)  "
                    + String(format: "%.1f fps  ETA %d:%02d", rate, Int(left) / 60, Int(left) % 60)
                : String(format: "frame %d  %.1f fps", done.finished, rate)
            return position + "  \(done.passedThrough) without a pose  \(done.corrupt) damaged"
        }
        let summary = prepared.run(isInterrupted: interrupted, onWarning: { Terminal.warning($0) })
        progress.stop()
        for note in summary.notes + prepared.videoNotes { Terminal.warning(note) }
        if let shortfall = summary.shortfall {
            Terminal.warning("\(input) is cut short: \(shortfall) (the output holds the frames read)")
        }
        let final = summary.progress
        switch summary.ending {
        case .readerClosed:
            // As `| head` expects of a writer (and as capture does): the reader had what it wanted,
            // so 0; but how far it got is said, since footage, unlike a camera, has an end.
            Terminal.note(
                "note: the program reading the stream closed it after \(final.written) "
                    + "frame\(final.written == 1 ? "" : "s") (\(final.read + summary.truncated) read)")
            return .ok
        case .failed(let failure):
            Terminal.error(failure.description)
            return failure.cannotCreate ? .cannotCreate : .ioError
        case .completed, .interrupted:
            break
        }
        Terminal.note(
            "annotate: \(final.read + summary.truncated) frames in, \(final.written) out (\(final.annotated) annotated, "
                + "\(final.passedThrough) without a pose passed through), "
                + "\(final.corrupt + summary.truncated) damaged skipped; "
                + (final.splicing.summary.map { $0 + "; " } ?? "")
                + String(format: "%.1f s, %.1f fps, ", summary.seconds, Double(final.read) / max(summary.seconds, 1e-9))
                + (workers == 1 ? "1 worker" : "\(workers) workers")
                + (summary.shortfall.map { "; cut short (\($0.read) of \($0.promised) frames)" } ?? ""))
        if output != "-" { Terminal.out(output) }
        if summary.shortfall != nil, summary.ending == .completed, parsed.isSet(Self.strict) {
            Terminal.error("\(input) is cut short, and --strict makes that an error")
            return .dataError
        }
        if prepared.posesFromTrack, final.read > 0, final.annotated == 0, summary.ending == .completed,
            !parsed.isSet(Self.passThrough)
        {
            Terminal.error(
                "no frame was annotated: the track gives none of the \(final.read) frames a pose"
                    + (output == "-" ? "" : " (\(output) holds them as they came)")
                    + "; check --start and --offset ('arcapture sync' finds the offset), or add --pass-through")
            return .failure
        }
        if summary.ending == .interrupted {
            // Not under the names a finished run's have, which a later step would take for one.
            let moved = prepared.partialOutputs
            if let file = moved.first(where: { $0.output == output }) {
                Terminal.note(
                    "interrupted: \(file.partial) holds the \(final.written) frames before Ctrl-C, each whole "
                        + "(\(output) is not written)")
            } else {
                Terminal.note("interrupted: the output holds the \(final.written) frames before Ctrl-C, each whole")
            }
            for sidecar in moved where sidecar.output != output {
                Terminal.note("interrupted: the sidecar's lines so far are in \(sidecar.partial)")
            }
            return .interrupted
        }
        return .ok
    }

    /// Says why the job cannot run, in the options that fix it, and gives the exit status.
    static func refuse(_ error: FootageJobError) -> ExitStatus {
        switch error {
        case .input(let input):
            Terminal.error(input.description)
            return input.cannotBeOpened ? .noInput : .dataError
        case .timing(let timing):
            Terminal.error(FootageTimeOptions.usageError(timing).message)
            return .usage
        case .noPositions(let footage, let kind, let searched):
            Terminal.error(
                kind == .video
                    ? "give --track FILE: \(footage) carries no GPS of its own ("
                        + (searched ?? "no GPMF telemetry track, no DJI .SRT beside it")
                        + "), and only a video with GPS or a folder of geotagged photos annotates without one"
                    : "give --track FILE: only a folder of geotagged photos annotates without one")
            return .usage
        case .trackMissed(let miss):
            // Refused before any work: written, it would be the footage as it came.
            Terminal.error(
                miss.description + ", so none would be annotated: check --start and --offset ('arcapture sync' "
                    + "finds the offset), or add --pass-through to write them unannotated; nothing was written")
            return .failure
        case .destination(let destination):
            // "'frames/%H.jpg' would give several frames one name …": the name is --output's.
            Terminal.error("--output \(destination.description)")
            return .usage
        case .font(let font):
            Terminal.error(font.description)
            return font.isMissing ? .noInput : .dataError
        case .output(let output):
            Terminal.error(output.description)
            return ExitStatus(output)
        }
    }

    /// `--codec`, `--crf`, `--preset` and `--x264-params`, when any is given: how a video file is
    /// encoded (nil: the default, ``VideoEncoding/standard``, or for an overlay the container's).
    private static func videoEncoding(_ parsed: ParsedArguments, quality: Int, overlayOnly: Bool) throws(UsageError)
        -> VideoEncoding?
    {
        let codec = parsed.text(Self.codec)
        let crf = try parsed.value(Self.crf)
        let preset = parsed.text(Self.preset)
        let parameters = parsed.text(Self.x264Parameters)
        let alphaCodecs = VideoEncoding.alphaEncodings.map(\.codecName)
        if overlayOnly {
            if let codec, !alphaCodecs.contains(codec) {
                throw UsageError(
                    "--overlay-only writes alpha, which \(codec) cannot hold: --codec prores, qtrle or png (in .mov), "
                        + "or vp9 (in .webm)")
            }
            if preset != nil || parameters != nil {
                throw UsageError(
                    "--preset and --x264-params are H.264's; an overlay is ProRes, QuickTime Animation, PNG or VP9")
            }
            if crf != nil && codec != "vp9" && codec != nil {
                throw UsageError("--crf is H.264's and VP9's; \(codec ?? "") is lossless or fixed-quality")
            }
            // No codec: the container's (nil), or VP9 when --crf is given.
            let chosen = VideoEncoding.alphaEncodings.first { $0.codecName == codec }
            if case .vp9 = chosen ?? .standardVP9, let crf { return .vp9(crf: crf) }
            return chosen
        }
        if let codec, alphaCodecs.contains(codec) {
            throw UsageError("--codec \(codec) writes an overlay with alpha: add --overlay-only")
        }
        guard codec != nil || crf != nil || preset != nil || parameters != nil else { return nil }
        switch codec ?? "h264" {
        case "h264":
            if let preset, !VideoEncoding.presets.contains(preset) {
                throw UsageError(
                    "--preset must be one of \(VideoEncoding.presets.joined(separator: ", ")), not '\(preset)'")
            }
            if let parameters, parameters.isEmpty || parameters.contains(where: \.isWhitespace) {
                throw UsageError("--x264-params takes KEY=VALUE pairs joined by ':', not '\(parameters)'")
            }
            guard case .h264(let standardCRF, let standardPreset, _) = VideoEncoding.standard else { return nil }
            return .h264(crf: crf ?? standardCRF, preset: preset ?? standardPreset, parameters: parameters)
        case "mjpeg":
            guard crf == nil, preset == nil, parameters == nil else {
                throw UsageError("--crf, --preset and --x264-params are H.264's; Motion JPEG is encoded at --quality")
            }
            return .mjpeg(quality: quality)
        default: throw UsageError("--codec must be h264, mjpeg, prores, qtrle, png or vp9, not '\(codec ?? "")'")
        }
    }
}
