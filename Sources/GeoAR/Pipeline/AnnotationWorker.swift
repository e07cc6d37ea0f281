import ARCompositor
import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import JPEGKit

/// One worker thread's tools: its own JPEG codec and annotator (neither is thread-safe), and the
/// camera model per frame size.
final class AnnotationWorker {
    private let decoder: JPEGDecoder?
    private let encoder: JPEGEncoder?
    /// Baseline JPEG frames are spliced (nil: every frame is decoded whole).
    private let splicing: SplicedDrawing?
    private var annotator: FrameAnnotator?
    private var minimap: MapRenderer?
    private let settings: AnnotationSettings
    /// What is drawn: the settings' map data, until a job brings a session's newer one.
    private var map: MapData
    /// The version of `map` when it came from a job (nil: the settings').
    private var version: (data: Int, layout: Int)?
    private var cameras = CameraModels()
    /// The last frame's planes, decoded into again: a stream of same-sized frames allocates (and
    /// clears) no new planes.
    private var decoded = AnnotationWorker.placeholder
    /// An overlay-only output's canvases (``OverlayMatte``), drawn into again frame after frame.
    private var blackCanvas: YCbCrImage?
    private var whiteCanvas: YCbCrImage?
    /// Encodes an overlay's PNG files.
    private lazy var pngEncoder = PNGFrameEncoder()

    init(settings: AnnotationSettings) {
        self.settings = settings
        decoder = try? JPEGDecoder()
        encoder = try? JPEGEncoder()
        // A map view covers every row, and planes out need every row decoded.
        // Another subsampling than the input's needs every sample decoded and encoded again.
        splicing =
            settings.splices && !settings.destination.wantsPlanes && !settings.mapOnly && settings.subsampling == nil
                && !settings.destination.isOverlay
            ? SplicedDrawing() : nil
        map = MapData(
            pointsOfInterest: settings.pointsOfInterest, route: settings.route, style: settings.style,
            banner: nil)
        map.banner = settings.banner  // as given: MapData's init would fall back to the style's
        remake()
    }

    /// The annotator and the plan view for `map`'s style.
    private func remake() {
        minimap = (settings.minimap ?? (settings.mapOnly ? MapRenderer.Options() : nil)).map {
            MapRenderer(style: map.style.style, options: $0)
        }
        annotator = try? FrameAnnotator(
            pointsOfInterest: map.pointsOfInterest, style: map.style.style, layout: map.style.layout,
            banner: map.banner, sampleRange: settings.drawingRange, sprites: settings.sprites)
    }

    /// Follows a session's map data: the POIs swapped in when only they changed, the annotator
    /// made again when the route, style or banner may have.
    private func follow(_ snapshot: MapDataSnapshot?) {
        guard let snapshot, version?.data != snapshot.version else { return }
        let layoutChanged = version?.layout != snapshot.layoutVersion
        map = snapshot.data
        version = (snapshot.version, snapshot.layoutVersion)
        if layoutChanged {
            remake()
        } else {
            annotator?.pointsOfInterest = map.pointsOfInterest
        }
    }

    /// Decodes, draws and encodes one frame (or passes it through without a pose).
    func process(_ job: consuming AnnotationJob) -> AnnotationResult {
        var planes = job.frame.takePlanes()
        var record = SidecarRecord(
            job: copy job, time: settings.keepsRecords ? job.time.map(JSONLinesLog.timestamp) : nil)
        var image: YCbCrImage
        var metadata: PhotoMetadata?
        var splice: SpliceOutcome?
        follow(job.map)
        if let layout = settings.destination.overlayLayout {
            return overlay(
                job, layout: layout, size: planes.map { ($0.width, $0.height, $0.subsampling) }, record: record)
        }
        if planes != nil {
            // Moved out of the optional, not copied: a second reference to the samples would make
            // the first write below copy every plane.
            image = planes.take() ?? Self.placeholder
            if settings.inputRange == .limited && settings.drawingRange == .full { image.expandToFullRange() }
            // A HEIC photo's planes come with its metadata, kept as a JPEG photo's is.
            metadata = job.frame.photoMetadata
        } else if case .jpeg(let bytes) = job.frame.content {
            guard let decoder else { return corrupt("the JPEG decoder could not be created", record) }
            if let problem = JPEGStructure.problem(in: bytes) { return corrupt(problem.description, record) }
            if splicing != nil, job.pose != nil, job.frame.name != nil,
                EXIFSegment(inJPEG: bytes)?.orientation ?? .up != .up
            {
                splice = .whole("photos turned upright by their EXIF orientation")
            } else if let splicing, job.pose != nil {
                // Only the MCUs drawn on are decoded and encoded again (EXIF kept).
                var drawn = (annotated: false, centre: String?.none, drawn: FrameAnnotation?.none)
                var splicedRecord = record
                let spliced = splicing.draw(bytes, annotator: annotator, map: minimap) { image in
                    splicedRecord = record  // drawn twice: the record of the last drawing
                    drawn = drawOverlay(on: &image, job: job, record: &splicedRecord)
                }
                switch spliced {
                case .spliced(var jpeg):
                    // A photo's header is kept whole but for an index of pictures after its end.
                    if job.frame.name != nil { jpeg = JPEGStructure.removingMultiPictureIndex(from: jpeg) }
                    return .frame(
                        .jpeg(jpeg), annotated: drawn.annotated, record: splicedRecord, time: job.time,
                        centre: drawn.centre, timing: FrameTiming(of: job.frame), splice: .spliced, drawn: drawn.drawn)
                case .damaged(let why): return corrupt(why, record)
                case .notSpliced(let why): splice = .whole(why)
                }
            }
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(JPEGError) in try decoder.decode(raw, into: &decoded) }
            }
            if case .failure(let error) = result { return corrupt("\(error)", record) }
            if job.pose == nil && !settings.destination.wantsPlanes {
                // Checked as an annotated frame is (whole structure, a full decode), so a text file,
                // a PNG or a cut-off frame named .jpg is skipped and counted, never copied out; the
                // bytes themselves pass through, with the standard Huffman tables a UVC camera
                // leaves out, so that every viewer opens them.
                return .frame(
                    .jpeg(JPEGStructure.insertingStandardHuffmanTables(into: bytes)), annotated: false,
                    record: record, time: job.time)
            }
            // A photo of a folder is drawn on (or passed on as planes) upright, as its EXIF orientation shows it, and
            // written upright with its metadata kept: EXIF (time, GPS, camera), colour profile, XMP, IPTC.
            if job.frame.name != nil, let found = PhotoMetadata(inJPEG: bytes) {
                metadata = found
                if let orientation = found.exif?.orientation, orientation != .up {
                    decoded = decoded.turnedUpright(orientation)
                }
            }
            // Moved out (the property lets go of the planes), so drawing does not copy them.
            image = decoded
            decoded = Self.placeholder
            // Drawn in the layout it is written in: each primitive's colour lands on the chroma
            // samples as they are written, not averaged afterwards.
            if let subsampling = settings.subsampling, subsampling != image.subsampling {
                image = image.resampled(to: subsampling)
            }
        } else {
            return corrupt("the frame holds nothing", record)
        }
        let (annotated, centre, drawn) = drawOverlay(on: &image, job: job, record: &record)
        if settings.destination.wantsPlanes {
            return .frame(
                .planes(image), annotated: annotated, record: record, time: job.time, centre: centre,
                timing: FrameTiming(of: job.frame), drawn: drawn)
        }
        guard let encoder else { return corrupt("the JPEG encoder could not be created", record) }
        defer { decoded = image }  // the planes are decoded into again for the next frame
        do {
            var jpeg = try encoder.encode(image, quality: settings.quality, restartRows: settings.restartRows)
            if let metadata { jpeg = JPEGStructure.inserting(metadata: metadata.upright(), into: jpeg) }
            return .frame(
                .jpeg(jpeg), annotated: annotated, record: record, time: job.time, centre: centre,
                timing: FrameTiming(of: job.frame), splice: splice, drawn: drawn)
        } catch {
            return corrupt("cannot encode: \(error)", record)
        }
    }

    /// The overlay alone for `job`, with its alpha (``OverlayMatte``), at the frame's size and in its
    /// layout (`size` for decoded planes; a JPEG's from its header, upright as its EXIF orientation
    /// shows it):
    /// drawn on black, drawn again on white from the same layout, and taken apart into `layout`. A
    /// frame without a pose is a transparent one, so the overlay keeps the footage's timing.
    private func overlay(
        _ job: borrowing AnnotationJob, layout: VideoPicture.Layout,
        size: (width: Int, height: Int, subsampling: ChromaSubsampling)?,
        record: SidecarRecord
    ) -> AnnotationResult {
        var record = record
        var frameSize = size
        if frameSize == nil, case .jpeg(let bytes) = job.frame.content {
            guard let decoder else { return corrupt("the JPEG decoder could not be created", record) }
            if let problem = JPEGStructure.problem(in: bytes) { return corrupt(problem.description, record) }
            let read = bytes.withUnsafeBytes { raw in Result { () throws(JPEGError) in try decoder.readHeader(raw) } }
            guard case .success(let header) = read else {
                return corrupt("not a JPEG with a size", record)
            }
            let turned = job.frame.name != nil && EXIFSegment(inJPEG: bytes)?.orientation?.swapsAxes == true
            // A photo turned upright is drawn on in 4:4:4 (its chroma cells turn with it).
            frameSize =
                turned ? (header.height, header.width, .s444) : (header.width, header.height, header.subsampling)
        }
        guard let (width, height, subsampling) = frameSize, width > 0, height > 0 else {
            return corrupt("the frame holds nothing", record)
        }
        var black = OverlayMatte.canvas(
            width: width, height: height, subsampling: subsampling, luma: 0, reusing: blackCanvas.take())
        var white = OverlayMatte.canvas(
            width: width, height: height, subsampling: subsampling, luma: 255, reusing: whiteCanvas.take())
        let (annotated, centre, drawn) = drawOverlay(on: &black, job: job, record: &record)
        if annotated, let annotator {
            annotator.reusesLastLayout = true
            var ignored = record
            _ = drawOverlay(on: &white, job: job, record: &ignored)
            annotator.reusesLastLayout = false
        }
        let picture = OverlayMatte.picture(black: black, white: white, layout: layout)
        (blackCanvas, whiteCanvas) = (black, white)
        let output: FrameOutput
        if case .pngFiles = settings.destination {
            do throws(VideoWriteError) {
                output = .png(try pngEncoder.encode(picture, name: "frame \(job.frame.index)"))
            } catch {
                return corrupt("cannot encode: \(error.problem)", record)
            }
        } else {
            output = .picture(picture)
        }
        return .frame(
            output, annotated: annotated, record: record, time: job.time, centre: centre,
            timing: FrameTiming(of: job.frame), drawn: drawn)
    }

    /// Draws the overlay for `job` (nothing without a pose): whether it did, and the marker nearest
    /// the centre when the settings ask for it.
    private func drawOverlay(on image: inout YCbCrImage, job: borrowing AnnotationJob, record: inout SidecarRecord)
        -> (annotated: Bool, centre: String?, drawn: FrameAnnotation?)
    {
        var annotated = false
        var centre: String?
        var annotation: FrameAnnotation?
        if let pose = job.pose, let annotator,
            let camera = camera(width: image.width, height: image.height, fieldOfView: job.frame.fieldOfView)
        {
            annotator.layoutOptions.selected = map.style.layout.selected.union(job.selected ?? [])
            if settings.mapOnly, let minimap {
                // A map view: the plan view over its part of the frame (the whole, or an inset over
                // the picture).
                minimap.draw(
                    into: &image, rect: settings.mapFrame.rect(width: image.width, height: image.height),
                    latitude: pose.latitude, longitude: pose.longitude, heading: pose.orientation.heading,
                    pointsOfInterest: map.pointsOfInterest, selected: annotator.layoutOptions.selected,
                    route: map.route, track: job.track)
            } else {
                let drawn = annotator.draw(
                    &image, pose: pose, camera: camera, groundAltitude: pose.altitude - settings.heightAboveGround,
                    route: map.route, navigation: job.navigation, time: job.time, utcOffset: job.utcOffset,
                    speed: job.speed,
                    frame: job.frame.index, headingAccuracy: job.headingAccuracy)
                annotation = drawn
                if settings.keepsRecords { record.add(drawn, units: map.style.layout.units) }
                if settings.selectsCenter {
                    centre = ViewFrameStage.nearestToCentre(drawn.layout, width: image.width, height: image.height)
                }
                if let minimap {
                    MinimapInset.draw(
                        minimap, on: &image, pose: pose, pointsOfInterest: map.pointsOfInterest,
                        selected: annotator.layoutOptions.selected, route: map.route, track: job.track)
                }
            }
            annotated = true
        }
        return (annotated, centre, annotation)
    }

    private static let placeholder = YCbCrImage(width: 16, height: 16, subsampling: .s420)

    private func corrupt(_ why: String, _ record: SidecarRecord) -> AnnotationResult {
        var record = record
        record.skipped = why
        record.pois = []
        return .corrupt(why, record: record)
    }

    /// The camera at this frame size (a calibration scaled to it, or the field of view).
    private func camera(width: Int, height: Int, fieldOfView: Double? = nil) -> CameraModel? {
        // A photo's own field of view (never with a calibration: the settings say so): a model
        // of its own (cheap), not one cached by size.
        if settings.fieldOfViewFromPhotos, let fieldOfView {
            return CameraModel(horizontalFieldOfView: fieldOfView, width: width, height: height)
        }
        return cameras.camera(
            CameraGeometry(
                calibrationFile: settings.cameraFile, horizontalFieldOfView: settings.horizontalFieldOfView,
                heightAboveGround: settings.heightAboveGround), width: width, height: height)
    }
}
