import ARCompositor
import CaptureKit
import Foundation

/// `arcapture annotate IMAGE.jpg`: draw points of interest on one photo for an explicit pose.
enum AnnotateCommand {
    static let spec = CommandSpec(
        name: "annotate",
        overview: """
            Annotate a photo with points of interest. For an explicit pose and camera, draw each POI in \
            view as a marker with its name and distance, labels that never overlap, and arrows at the \
            border for POIs out of view; write a JPEG with the input's chroma subsampling.
            """,
        usage: """
            IMAGE.jpg --pois FILE.geojson --position LAT,LON,ALT [--orientation H,P,R] \
            (--camera FILE.yaml | --hfov DEG) [--output OUT.jpg] [--force] [more options]
            """,
        arguments: [("IMAGE.jpg", "The photo (JPEG) to draw on; its size is the frame size.")],
        options: ProjectCommand.spec.options.filter { !["json", "in-view", "within", "size"].contains($0.name) } + [
            .value("output", "FILE", default: "IMAGE-annotated.jpg", help: "The annotated JPEG (written atomically)."),
            .flag("force", help: "Overwrite the output if it exists."),
            .value("quality", "Q", default: "90", help: "JPEG quality, 1-100."),
            .value("select", "ID", help: "Highlight this POI and always label it (repeatable)."),
            .value("units", "metric|imperial", default: "metric", help: "Distance units on labels."),
            .value("font", "NAME|FILE", default: "DejaVu Sans", help: "A fontconfig font name or a font file."),
            .value("max-distance", "METRES", default: "5000", help: "Leave out POIs further than this."),
            .value("max-markers", "N", default: "30", help: "Draw at most this many markers, the nearest."),
        ],
        discussion: """
            The pose and camera options are `arcapture project`'s. A summary (markers, labels placed and \
            hidden, arrows) goes to stderr; the output's path to stdout.

            EXIT STATUS:
              0   the annotated photo was written
              64  bad command line
              65  an input file is malformed (or the image is not a JPEG)
              66  an input file is missing
              73  the output exists (use --force) or cannot be created
              74  writing the output failed

            EXAMPLE:
              arcapture annotate samples/photos/helsinki_west_harbour_nokia83.jpg \\
                  --pois samples/pois/helsinki_center_osm_pois.geojson --position 60.146706,24.906772,21 \\
                  --orientation 60,0,0 --hfov 100 --output harbour.jpg
            """)

    static func run(_ arguments: [String]) async -> ExitStatus {
        let parsed: ParsedArguments
        do {
            parsed = try ArgumentParser.parse(arguments, spec: spec, maxPositionals: 1)
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        guard let input = parsed.positionals.first else {
            Terminal.error("give the photo to annotate: arcapture annotate IMAGE.jpg …")
            return .usage
        }
        // The image first: its size is the frame's.
        let image: YCbCrImage
        do {
            let bytes = try InputFile.read(input)
            image = try JPEGDecoder().decode(Array(bytes))
        } catch let error as InputFileError {
            Terminal.error(error.description)
            return error.isMissing ? .noInput : .dataError
        } catch {
            Terminal.error("\(input): not a JPEG image arcapture can read (\(error))")
            return .dataError
        }
        let options: ProjectOptions
        var layoutOptions = MarkerLayoutOptions()
        var style = OverlayStyle()
        let quality: Int
        let output: String
        do throws(UsageError) {
            options = try ProjectOptions(
                parsed, imageSize: FrameSize(width: UInt32(image.width), height: UInt32(image.height)))
            quality = try parsed.integer("quality", in: 1...100) ?? 90
            layoutOptions.maximumDistance = try parsed.number("max-distance", in: 1...20_000_000) ?? 5000
            layoutOptions.maximumMarkers = try parsed.integer("max-markers", in: 0...10_000) ?? 30
            layoutOptions.selected = Set(parsed.values["select"] ?? [])
            if let units = parsed.value("units") {
                guard let value = DistanceUnits(rawValue: units) else {
                    throw UsageError("--units must be metric or imperial, not '\(units)'")
                }
                layoutOptions.units = value
            }
            style.font = parsed.value("font") ?? style.font
            output = parsed.value("output") ?? Self.defaultOutput(for: input)
            if FileManager.default.fileExists(atPath: output) && !parsed.flag("force") {
                Terminal.error("\(output) exists; use --force to overwrite it")
                return .cannotCreate
            }
        } catch {
            Terminal.error(error.message)
            return .usage
        }
        do {
            let (file, _, points) = try options.project()
            ProjectCommand.report(file: file, ground: options.groundAltitude, options: options)
            let compositor: Compositor
            do {
                compositor = try Compositor(style: style)
            } catch {
                Terminal.error(error.description)
                return .noInput
            }
            let layout = MarkerLayout(
                points: points, width: image.width, height: image.height, heading: options.orientation.heading,
                options: layoutOptions
            ) { compositor.labelSize($0, frameHeight: image.height) }
            var annotated = image
            compositor.draw(layout, on: &annotated)
            let jpeg: [UInt8]
            do {
                jpeg = try JPEGEncoder().encode(annotated, quality: quality)
            } catch {
                Terminal.error("cannot encode the annotated image: \(error)")
                return .failure
            }
            do {
                let writer = try AtomicFileWriter(destination: output)
                try writer.write(jpeg)
                try writer.commit()
            } catch {
                Terminal.error(error.description)
                return error.exitStatus
            }
            Terminal.note(
                "\(layout.markers.count) markers, \(layout.labels.count) labels (\(layout.hiddenLabels) hidden for lack of room), "
                    + "\(layout.edgeIndicators.count) arrows for POIs out of view"
                    + (layout.omitted > 0
                        ? "; \(layout.omitted) in view left out by --max-distance or --max-markers" : ""))
            Terminal.out(output)
            return .ok
        } catch {
            Terminal.error(error.description)
            return error.isMissing ? .noInput : .dataError
        }
    }

    /// `photo.jpg` → `photo-annotated.jpg`, beside it.
    static func defaultOutput(for input: String) -> String {
        let url = URL(fileURLWithPath: input)
        let stem = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(stem)-annotated.jpg").path
    }
}
