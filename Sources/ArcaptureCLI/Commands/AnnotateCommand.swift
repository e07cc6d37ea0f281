import ARCompositor
import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import GeoAR
import JPEGKit
import Positioning

/// `arcapture annotate IMAGE.jpg`: draw points of interest on one photo for an explicit pose.
enum AnnotateCommand {
    static let spec = CommandSpec(
        name: "annotate",
        overview: """
            Annotate a photo with points of interest and a route. For an explicit pose and camera, draw \
            each POI in view as a marker with its name and distance, labels that never overlap, and arrows \
            at the border for POIs out of view; with --route, the route as a ribbon on the ground, an arrow \
            at the next manoeuvre and a navigation panel; optionally a banner. The JPEG keeps the input's \
            chroma subsampling unless --subsampling says otherwise.
            """,
        usage: """
            IMAGE.jpg --pois FILE.geojson [--position LAT,LON,ALT] [--orientation H,P,R] \
            [--camera FILE.yaml | --hfov DEG] [--output OUT.jpg] [--force] [more options]
              or: arcapture annotate FOOTAGE --pois FILE.geojson (--camera FILE.yaml | --hfov DEG) \
            [--track FILE] --output OUT [--workers N] [time and pose options]
              or: arcapture annotate CHAPTER.mp4 CHAPTER.mp4… [footage options]
              or: arcapture annotate --batch MANIFEST [--shard K/N] [--report FILE.json] [footage options]
            """,
        arguments: [
            (
                "IMAGE.jpg | FOOTAGE",
                "A photo to draw on for --position; or footage: a video file (MP4, MOV, MKV…), an MJPEG stream, a Y4M "
                    + "file or a folder of JPEGs; or the video files of one recording its camera split (GoPro's "
                    + "GX010123.MP4 GX020123.MP4…, a DJI drone's files at 4 GB), in recording order, as one video."
            )
        ],
        options: photoSpecs + AnnotateFootage.specs,
        discussion: """
            The pose and camera options are `arcapture project`'s; without --position, a geotagged \
            photo's EXIF position and image direction are the pose, and without --camera or --hfov its \
            EXIF focal length gives the field of view (said in a note; refused when it has none). Footage options given for one \
            photo, and photo options (--time, --subsampling, --ground-speed, --poi-altitude) given \
            for footage, are refused. The ground (for POIs without an \
            altitude and for the route) is --height-above-ground below the device. Options given on the \
            command line win over the style file's. A summary (markers, labels placed and hidden, arrows, \
            the navigation instruction) goes to stderr; the output's path to stdout.

            FOOTAGE (more than one frame): each frame's pose comes from --track at the frame's time \
            (start + i / fps × speed + offset, as `arcapture sync` shows it); or from --position and \
            --orientation, one fixed pose for every frame (a camera on a mast); or, for a folder of \
            geotagged photos without --track, from each photo's EXIF GPS position and image direction. Frames are drawn \
            on --workers threads and written in order to --output: FILE.mp4, FILE.mov or FILE.mkv (a \
            video: H.264 at --crf and --preset, or --codec mjpeg; a video's audio and telemetry copied, \
            its frames' timestamps and metadata kept), FILE.mjpeg (concatenated JPEGs), FILE.y4m, a \
            template with a counter (frames/%05n.jpg) or - (stdout; --format y4m for Y4M); the output is \
            byte-identical whatever the worker count. Frames without a pose pass through \
            unannotated, damaged ones are skipped with a warning; both are counted in the summary. \
            --overlay-only writes the drawing alone, with alpha, at the footage's size, rate and \
            timing, for an editor to lay over the footage: FILE.mov (ProRes 4444; --codec qtrle or \
            png), FILE.webm (VP9 with alpha) or overlay/%05n.png.

            EXIT STATUS:
              0   the photo or footage was annotated (footage: also when the program reading
                  --output - closed it early; a note says after how many frames)
              64  bad command line
              65  an input file is malformed (or the image is not a JPEG); with --strict, a video
                  cut short (fewer frames than its index promises: the output holds those read)
              66  an input file is missing, a folder or unreadable
              73  the output exists (use --force) or cannot be created
              74  writing the output failed
              130 interrupted (footage: the output holds every frame before Ctrl-C, each whole)

            EXAMPLE:
              arcapture annotate samples/photos/helsinki_west_harbour_nokia83.jpg \\
                  --pois samples/pois/helsinki_center_osm_pois.geojson --position 60.146706,24.906772,21 \\
                  --orientation 60,0,0 --hfov 100 --output harbour.jpg
            """)

    /// A photo's options: project's pose and camera, the output, and what is drawn.
    private static var photoSpecs: [OptionSpec] {
        let output: [OptionSpec] = [
            AnnotateSettings.output.spec, AnnotateSettings.force.spec, JPEGOutputOptions.quality.spec,
        ]
        let drawing: [OptionSpec] = [
            OverlayOptions.select.spec, OverlayOptions.units.spec, OverlayOptions.font.spec,
            OverlayOptions.maxDistance.spec, OverlayOptions.maxMarkers.spec,
            OverlayOptions.route.described(
                "A route to follow: GPX (first <rte>, else first <trk>) or GeoJSON (first LineString)."
            ).spec,
            AnnotateSettings.groundSpeed.spec, OverlayOptions.style.spec, OverlayOptions.banner.spec,
            AnnotateSettings.time.spec, AnnotateSettings.subsampling.spec,
        ]
        return ProjectOptions.annotateSpecs + output + JPEGOutputOptions.specs + drawing
    }

    static func run(_ arguments: [String]) async -> ExitStatus {
        var parsed: ParsedArguments
        do {
            // Several files are one recording's chapters, checked below.
            parsed = try ArgumentParser.parse(arguments, spec: spec, maxPositionals: .max)
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        if parsed.isGiven(AnnotateFootage.batch) { return await AnnotateBatch.run(parsed, arguments: arguments) }
        guard let input = parsed.positionals.first else {
            Terminal.error("give the photo to annotate: arcapture annotate IMAGE.jpg …")
            return .usage
        }
        // Footage (more than one frame, a folder, a pipe) is annotated frame by frame, with --position
        // as one fixed pose if given; one photo is drawn for --position, else for its EXIF geotag
        // (as each photo of a folder is).
        // A missing input is said as such, not taken for a photo whose footage options are wrong.
        for path in parsed.positionals where path != "-" && !FileManager.default.fileExists(atPath: path) {
            Terminal.error(InputFileError.missing(file: path).description)
            return .noInput
        }
        // Several files: the chapters of one recording a camera split (GX010123.MP4 GX020123.MP4),
        // read as one video.
        let chapters = Array(parsed.positionals.dropFirst())
        if let other = parsed.positionals.first(where: { !FootageReader.isVideoFile($0) }), !chapters.isEmpty {
            Terminal.error(
                "\(other) is not a video file: only the video files of one recording (a camera's chapters, such as "
                    + "GX010123.MP4 GX020123.MP4) are given together, to be annotated as one video")
            return .usage
        }
        let mode: AnnotateMode = isFootage(input) ? .footage : .photo
        if let refusal = mode.refusal(parsed) {
            Terminal.error(refusal.message)
            return .usage
        }
        if mode == .footage { return await AnnotateFootage.run(parsed, input: input, chapters: chapters) }
        return annotatePhoto(input, parsed: parsed)
    }

    /// One photo: GeoAR's footage job over a folder of one (as each photo of a folder is drawn),
    /// for `--position` (else its EXIF geotag); the layout and the route reported on stderr.
    private static func annotatePhoto(_ input: String, parsed given: ParsedArguments) -> ExitStatus {
        var parsed = given
        // The header first: its size (upright) is the frame's for the camera. A HEIC's metadata is
        // read as a JPEG header holding it; its picture is already upright (HEIF's own rotation).
        let bytes: [UInt8]
        var size: FrameSize
        do {
            let file = try Array(InputFile.read(input))
            if HEIFPhoto.isHEIF(head: Array(file.prefix(64))) {
                let photo = try HEIFPhoto(data: Data(file), path: input)
                bytes = photo.metadataHeader
                size = FrameSize(width: UInt32(photo.width), height: UInt32(photo.height))
            } else {
                bytes = file
                let header = try bytes.withUnsafeBytes { raw in try JPEGDecoder().readHeader(raw) }
                size = FrameSize(width: UInt32(header.width), height: UInt32(header.height))
            }
        } catch let error as InputFileError {
            Terminal.error(error.description)
            return error.cannotBeOpened ? .noInput : .dataError
        } catch {
            Terminal.error("\(input): not a JPEG or HEIC image arcapture can read (\(error))")
            return .dataError
        }
        // Drawn on the upright picture (the field of view is the upright one's), written upright,
        // with the photo's EXIF kept and its orientation reset.
        if let orientation = EXIFSegment(inJPEG: bytes)?.orientation, orientation != .up {
            if orientation.swapsAxes { size = FrameSize(width: size.height, height: size.width) }
            Terminal.note(
                "note: \(input) is stored turned (EXIF orientation \(orientation.rawValue)); it is drawn on and written "
                    + "upright, \(size.width)x\(size.height)")
        }
        if !parsed.isGiven(ProjectOptions.position) {
            guard let tag = EXIFReader.geotag(inJPEG: bytes) else {
                Terminal.error(
                    "\(input) has no GPS position in its EXIF: give --position LAT,LON,ALT (and --orientation HEADING)")
                return .usage
            }
            // The photo's time picks the magnetic model's year: --time, else its EXIF time.
            let time: Date?
            do throws(UsageError) {
                time = try parsed.valueIfDeclared(AnnotateSettings.time) ?? EXIFReader.captureTime(inJPEG: bytes)?.date
            } catch {
                Terminal.error(error.message)
                return .usage
            }
            guard useGeotag(tag, at: time, of: input, in: &parsed) else { return .usage }
        }
        // Without --hfov or --camera, the field of view from the photo's EXIF lens data, said.
        if !parsed.isGiven(ProjectOptions.hfov), !parsed.isGiven(ProjectOptions.camera),
            let fieldOfView = EXIFReader.lens(inJPEG: bytes)?.horizontalFieldOfView(
                width: Int(size.width), height: Int(size.height),
                turned: EXIFSegment(inJPEG: bytes)?.orientation?.swapsAxes ?? false)
        {
            parsed.set(ProjectOptions.hfov, to: "\(fieldOfView.degrees)")
            Terminal.note(
                String(
                    format: "note: the field of view from %@'s EXIF: %.1f° across, from ", input, fieldOfView.degrees)
                    + "\(fieldOfView.from) (--hfov or --camera overrides it)")
        }
        let options: ProjectOptions
        let settings: AnnotateSettings
        do throws(UsageError) {
            options = try ProjectOptions(parsed, imageSize: size)
            settings = try AnnotateSettings(parsed, input: input)
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        let toStandardOutput = settings.output == "-"  // `-` is stdout, as for footage
        if toStandardOutput { signal(SIGPIPE, SIG_IGN) }  // a closed reader is an EPIPE to handle
        if !toStandardOutput && OutputPathKind(path: settings.output).isReplaced
            && !parsed.isSet(AnnotateSettings.force)
        {
            Terminal.error("\(settings.output) exists; use --force to overwrite it")
            return .cannotCreate
        }
        guard
            let position = GeodeticCoordinate(
                latitude: options.latitude, longitude: options.longitude, altitude: options.altitude)
        else {
            Terminal.error("--position is not a place on Earth: \(options.latitude), \(options.longitude)")
            return .usage
        }
        let job: FootageJob
        let route: NavigationRoute?
        let units: DistanceUnits
        do throws(InputFileError) {
            let file = try GeoJSONFile(contentsOf: options.poisFile, strict: parsed.isSet(AnnotateFootage.strict))
            ProjectCommand.report(file: file, ground: options.groundAltitude, options: options)
            _ = try options.camera()  // a calibration that does not load is said before any work
            var style = try settings.loadStyle()
            SelectedPOIs.resolve(&style, among: file.pointsOfInterest)
            route = try settings.loadRoute()
            units = style.layout.units
            job = photoJob(
                input, at: position, options: options, settings: settings, force: parsed.isSet(AnnotateSettings.force),
                map: MapData(
                    pointsOfInterest: file.pointsOfInterest, route: route, style: style,
                    banner: settings.banner ?? style.banner))
        } catch {
            Terminal.error(error.description)
            return error.cannotBeOpened ? .noInput : .dataError
        }
        let prepared: PreparedFootageJob
        do {
            prepared = try job.prepare(messages: .terminal)
        } catch {
            return AnnotateFootage.refuse(error)
        }
        Terminal.note(FootageTimeOptions.note(prepared, given: "--time"))
        let drawn = Locked<FrameAnnotation?>(nil)
        let damage = Locked<String?>(nil)
        let summary = prepared.run(
            onWarning: { warning in damage.withLock { $0 = warning } },
            drawnObserver: { _, annotation in drawn.withLock { $0 = annotation } })
        switch summary.ending {
        case .readerClosed:
            return .ok  // a reader that stopped early (`| head -c`) had what it wanted
        case .failed(let failure):
            Terminal.error(failure.description)
            return failure.cannotCreate ? .cannotCreate : .ioError
        case .completed, .interrupted:
            break
        }
        guard let annotation = drawn.withLock({ $0 }), summary.progress.written == 1 else {
            // "frame 0 (photo.jpg): cannot be decoded (…); skipped": the decoder's words.
            let why = damage.withLock { $0 }.flatMap { $0.firstRange(of: "cannot be decoded (") }.map { range in
                String(damage.withLock { $0 ?? "" }[range.upperBound...].dropLast("); skipped".count))
            }
            Terminal.error("\(input): not a JPEG or HEIC image arcapture can read (\(why ?? "it does not decode"))")
            return .dataError
        }
        report(annotation, route: route, units: units)
        if !toStandardOutput { Terminal.out(settings.output) }
        return .ok
    }

    /// The footage job that draws one photo: its pose fixed (the options', or its geotag put in
    /// their place), its time `--time` or its EXIF time, written to `--output` or stdout.
    private static func photoJob(
        _ input: String, at position: GeodeticCoordinate, options: ProjectOptions, settings: AnnotateSettings,
        force: Bool, map: MapData
    ) -> FootageJob {
        // A name is a template's pattern: its own '%' are literal.
        let output: FootageDestination =
            settings.output == "-"
            ? .mjpegStream
            : .files(OutputTemplate(pattern: settings.output.replacingOccurrences(of: "%", with: "%%")))
        var job = FootageJob(
            input: input,
            // --time stands for the photo's time (frame 0 of a clock that starts there).
            timing: settings.time.map { FootageTiming(start: .given($0), framesPerSecond: 1) } ?? FootageTiming(),
            poses: FootagePosePlan(
                positions: .fixed(position), orientation: .fixed(options.orientation)),
            map: map,
            camera: CameraGeometry(
                calibrationFile: options.cameraFile, horizontalFieldOfView: options.horizontalFieldOfView ?? 70,
                // POIs without an altitude stand on the ground: --poi-altitude, else below the device.
                heightAboveGround: options.altitude - options.groundAltitude),
            output: output, workers: 1)
        job.isSinglePhoto = true
        job.quality = settings.quality
        job.restartRows = settings.jpeg.restartRows
        job.splices = settings.jpeg.splices
        job.subsampling = settings.subsampling
        job.groundSpeed = settings.speed
        job.replacing = force
        return job
    }

    /// Puts a photo's geotag where `--position` (and, without one given, `--orientation`) would
    /// be, and says so: the altitude above sea level put on the ellipsoid with the geoid, as for a
    /// folder of photos (``Geotag/ellipsoidalAltitude(assumingGeoidSeparation:)``);
    /// a magnetic image direction is made true as GeoAR's ``GeotagHeading`` says (the photo taken at
    /// `time`). A photo without an image direction and no `--orientation` is refused (false), as one
    /// without a position is: drawn facing north, its labels would be a guess.
    private static func useGeotag(_ tag: Geotag, at time: Date?, of input: String, in parsed: inout ParsedArguments)
        -> Bool
    {
        let (altitude, reference) = tag.ellipsoidalAltitude()
        let heading: String
        if let given = parsed.text(ProjectOptions.orientation) {
            heading = "orientation \(given) (--orientation)"
        } else if let direction = GeotagHeading(tag, at: time) {
            let measured = direction.pitch.map { pitch in ",\(pitch),\(direction.roll ?? 0)" } ?? ""
            parsed.set(ProjectOptions.orientation, to: "\(direction.heading)\(measured)")
            heading = direction.description
            if let warning = direction.warning {
                Terminal.warning("\(input): \(warning); give --orientation with the true heading to correct it")
            }
        } else {
            Terminal.error(
                "\(input) has no image direction in its EXIF (GPSImgDirection), so where it looks is unknown: give "
                    + "--orientation HEADING (degrees clockwise from true north; H,P,R with pitch and roll)")
            return false
        }
        parsed.set(ProjectOptions.position, to: "\(tag.latitude),\(tag.longitude),\(altitude)")
        var height =
            tag.altitudeMeanSeaLevel.map { String(format: "%.1f m above sea level", $0) } ?? "no altitude (sea level)"
        if case .seaLevelGeoidModel(let model) = reference {
            height += String(format: ", %.1f m on the ellipsoid with %@'s geoid", altitude, model)
        } else if reference.isApproximate {
            height += " taken as on the ellipsoid (\(GeoidGrid.unavailableReason ?? "no geoid"))"
        }
        Terminal.note(
            String(format: "note: the pose from %@'s EXIF: %.6f, %.6f, ", input, tag.latitude, tag.longitude)
                + "\(height), \(heading)")
        return true
    }

    /// The summary on stderr.
    private static func report(_ drawn: FrameAnnotation, route: NavigationRoute?, units: DistanceUnits) {
        let layout = drawn.layout
        Terminal.note(
            "\(layout.markers.count) markers, \(layout.labels.count) labels (\(layout.hiddenLabels) hidden for lack of room), "
                + "\(layout.edgeIndicators.count) arrows for POIs out of view"
                + (layout.omitted > 0 ? "; \(layout.omitted) in view left out by the distance or count limits" : ""))
        guard let route else { return }
        guard let navigation = drawn.navigation else {
            Terminal.note("route \(route.route.id): arrived (within the arrival distance of its end); nothing drawn")
            return
        }
        Terminal.note(
            "route \(route.route.id): \(units.format(route.length)), \(route.manoeuvres.count - 1) manoeuvres; "
                + "\(navigation.instruction(units: units)); \(navigation.summary(units: units)) left"
                + " (\(units.format(navigation.snap.distanceFromRoute)) from the route)")
    }

    /// `photo.jpg` → `photo-annotated.jpg`, beside it.
    static func defaultOutput(for input: String) -> String {
        let url = URL(fileURLWithPath: input)
        let stem = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(stem)-annotated.jpg").path
    }

    /// Whether `input` is footage rather than one photo: a folder, stdin, a named pipe, a Y4M file,
    /// or a file of more than one JPEG (an MJPEG stream). Only a regular file's first two frames are
    /// read: a pipe is a stream, and frames read from it to look would be lost to the run.
    static func isFootage(_ input: String) -> Bool {
        var status = stat()
        if input == "-" || input.lowercased().hasSuffix(".y4m") || FootageReader.isVideoFile(input)
            || (stat(input, &status) == 0 && status.st_mode & S_IFMT != S_IFREG)
        {
            return true
        }
        guard let reader = try? FootageReader(path: input), reader.next() != nil else { return false }
        return reader.next() != nil
    }
}
