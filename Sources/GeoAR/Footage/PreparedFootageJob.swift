import ARCompositor
import ArcaptureCore
import CaptureKit
import Footage
import Foundation
import JPEGKit
import Positioning

/// A ``FootageJob`` opened and decided: the footage's description and clock, each frame's pose,
/// the output created. ``run(isInterrupted:onWarning:frameObserver:mapData:centreObserver:drawnObserver:)``
/// annotates it.
///
/// - Important: ``run(isInterrupted:onWarning:frameObserver:mapData:centreObserver:drawnObserver:)`` runs on the
///   caller's thread and returns when the footage is done; ``progress`` may be read from any
///   thread meanwhile.
///
/// `@unchecked Sendable`: the pipeline it holds is (see ``FootagePipeline``); the rest is set once.
public final class PreparedFootageJob: @unchecked Sendable {
    /// The footage as the reader sees it (a video's or Y4M's exact frame count, an MJPEG stream's
    /// estimate from its first frame's size).
    public let info: FootageInfo
    /// The clock that times the frames, when one does (a folder of geotagged photos has each
    /// photo's own time; one fixed pose, a clock only when the footage or the job gives a start).
    public let clock: FootageClock?
    /// Where the clock's start came from, with ``clock``.
    public let clockOrigin: ClockOrigin?
    /// The offset found by matching the footage's own motion with the track, when the timing
    /// asked for it (``FootageTiming/findsOffset``): ``clock``'s offset is its.
    public let offsetEstimate: TrackOffsetEstimate?
    /// Whether the frames' poses come from a track (so a run that annotates none of them says so).
    public let posesFromTrack: Bool
    /// Whether ``info``'s frame count is an estimate (an MJPEG stream's).
    public var isFrameCountEstimated: Bool { info.kind == .mjpeg }

    /// One line saying where the frames' time comes from, in the library's terms (a command line
    /// says it in its flags): the first frame's time and its source with the offset and speed
    /// applied, each photo's own EXIF time, or that there is none.
    public var timeNote: String {
        if let clock, let clockOrigin {
            var note = "time: the first frame at \(UTCTime.format(clock.start)) from \(clockOrigin)"
            if let offsetEstimate {
                note += String(format: ", %+.1f s ", offsetEstimate.offset) + Self.describe(offsetEstimate)
            } else if clock.offset != 0 {
                note += String(format: ", %+g s offset", clock.offset)
            }
            if clock.speed != 1 { note += String(format: ", at %g× speed", clock.speed) }
            return note
        }
        if let start = info.metadataStart {
            return info.kind == .jpegFolder && info.frameCount > 1
                ? "time: each photo's own; the first, \(UTCTime.format(start.date)), from \(start.source)"
                : "time: \(UTCTime.format(start.date)) from \(start.source)"
        }
        return "time: none (\(info.path) has none in its metadata): the banner's time and the sidecar's times are empty"
    }

    /// How an offset was found, in a phrase that follows the offset itself: `found by matching the
    /// footage's own positions with the track (median 2.1 m apart, ±0.3 s over 8 windows; probably
    /// a time zone, +1 h)`.
    public static func describe(_ estimate: TrackOffsetEstimate) -> String {
        var text = String(
            format: "found by matching the footage's own positions with the track (median %.1f m apart",
            estimate.medianMismatch)
        if let spread = estimate.spread {
            text += String(format: ", ±%.1f s over %d windows", spread, estimate.windows)
        }
        if let zone = estimate.likelyTimeZone {
            text += "; probably a time zone, " + TrackOffsetEstimate.describeTimeZone(zone)
        }
        return text + ")"
    }

    private let pipeline: FootagePipeline
    private let sink: FootageSink

    init(job: FootageJob, messages: PipelineMessages) throws(FootageJobError) {
        let input = job.input
        let reader: FootageReader
        do {
            reader =
                job.isSinglePhoto
                ? try FootageReader(photo: input)
                : try FootageReader(chapters: [input] + job.chapters, decoderThreads: job.output.decoderThreads)
        } catch {
            throw .input(error)
        }
        // A video written from a video keeps its other streams: their packets are kept from the
        // first one on, before any frame is read.
        let videoSource: VideoStreamCopy?
        do {
            videoSource = try job.output.videoFormat.flatMap { format throws(InputFileError) in
                try reader.copyStreams(into: format)
            }
        } catch {
            throw .input(error)
        }
        for note in videoSource?.notCopied ?? [] { messages.warning("\(input): not copied: \(note)") }
        // Footage is described from what the reader sees, not probed ahead (probing would read a
        // whole file first): the first frame gives the EXIF start, a Y4M file's size its frame count.
        let first = reader.next()
        guard first != nil || reader.truncatedFrames > 0 else {
            // A Y4M header with nothing after it: an empty output would say all went well.
            for note in reader.notes { messages.warning(note) }
            throw .input(
                .malformed(file: input == "-" ? "stdin" : input, location: nil, problem: "no frames to annotate"))
        }
        // A video's own GPS (GoPro's GPMF, a DJI subtitle file beside it) times it: its start on
        // the telemetry's clock is its metadata.
        var embedded: EmbeddedTelemetry.Reading?
        // Why the video carries no GPS arcapture reads, once it was looked for.
        var searched: String?
        let files = [input] + job.chapters
        let hasTelemetry = reader.kind == .video && files.contains(where: EmbeddedTelemetry.hasTelemetry)
        // Telemetry that is there is read; a video whose own GPS is asked for, with none arcapture
        // reads itself, gets what ExifTool reads (a dashcam's), else why there is none.
        if hasTelemetry || (reader.kind == .video && job.poses.positions.isFootage) {
            do {
                embedded = try EmbeddedTelemetry.read(chapters: files)
            } catch {
                // Telemetry with no GPS (a product whose layout is not read, a receiver that never
                // had a fix) is not damage: the video needs a track, or has one given.
                guard let reason = EmbeddedTelemetry.noGPSReason(error) else { throw .input(error) }
                searched = reason
                if hasTelemetry, !job.poses.positions.isFootage {
                    messages.warning("\(input): its own telemetry is not used: \(reason)")
                }
            }
        }
        var info = FootageInfo(describing: reader, path: input, first: first)
        // Without one, the container's creation time (an iPhone's with its zone; else often local
        // time labelled UTC: the origin says the start came from it).
        if let start = embedded.flatMap({ reading in
            reading.videoStart.map { CaptureTime(date: $0, source: reading.startSource) }
        })
            ?? reader.videoCreationTime
        {
            info.metadataStart = start
        }
        self.info = info

        // Poses: a track and the footage clock, one fixed pose (a camera on a mast), or each photo's
        // own geotag.
        let plan = job.poses
        let poses: FootagePipeline.Poses
        var clockOrigin: ClockOrigin?
        var offsetEstimate: TrackOffsetEstimate?
        if job.timing.findsOffset, !plan.positions.isTrack {
            // One fixed place, or the footage's own positions: there is nothing to match them with.
            throw .timing(.noMotionToMatch(footage: input, hasTrack: false))
        }
        switch plan.positions {
        case .fixed(let position):
            let body: DeviceOrientation
            if case .fixed(let fixed) = plan.orientation {
                body = fixed
            } else {
                body = DeviceOrientation(heading: 0, pitch: 0, roll: 0)
            }
            let pose = DevicePose(
                latitude: position.latitude, longitude: position.longitude, altitude: position.altitude ?? 0,
                orientation: plan.mount.cameraOrientation(body: body))
            // Frames are timed (for the banner and file names) when the footage says how.
            let rate = job.timing.framesPerSecond ?? info.framesPerSecond
            let start = job.timing.givenStart ?? info.metadataStart?.date
            let clock = rate.flatMap { fps in start.map { FootageClock(start: $0, framesPerSecond: fps) } }
            if clock != nil {
                clockOrigin = job.timing.givenStart != nil ? .given : info.metadataStart.map { .metadata($0.source) }
            }
            poses = .fixed(pose, clock)
            // A photo's caller says where its pose came from (its geotag, the program).
            if !job.isSinglePhoto {
                messages.note(
                    "note: one fixed pose for every frame: \(position.latitude),\(position.longitude),\(position.altitude ?? 0), "
                        + "heading \(body.heading)°, pitch \(body.pitch)°, roll \(body.roll)°")
            }
        case .track, .footage:
            var track: RecordedTrack
            if case .track(let given) = plan.positions {
                track = given
            } else if let embedded {
                track = embedded.track
                messages.note("note: poses from \(embedded.origin): \(track.summary)")
            } else if reader.kind == .jpegFolder {
                var given: DeviceOrientation?
                if case .fixed(let fixed) = plan.orientation { given = fixed }
                poses = .geotags(geoidSeparation: plan.geoidSeparation, orientation: given)
                let heights = HeightNote.photos(assumedGeoidSeparation: plan.geoidSeparation)
                if heights.isWarning { messages.warning(heights.text) } else { messages.note("note: \(heights.text)") }
                break
            } else {
                throw .noPositions(footage: info.path, kind: reader.kind, searched: searched)
            }
            for warning in track.warnings.prefix(5) { messages.warning(warning) }
            var clock: FootageClock
            do throws(FootageTimingError) {
                if case .footage = plan.positions, let embedded, embedded.isRelative, job.timing.givenStart == nil,
                    job.timing.start == .firstFix || info.metadataStart == nil
                {
                    throw FootageTimingError.undatedTelemetry(footage: input, telemetry: embedded.origin)
                }
                (clock, clockOrigin) = try job.timing.clock(footage: info, track: track)
                // Telemetry timed only from the video's start (a DJI file without dates) is placed
                // where the clock puts the first frame.
                if case .footage = plan.positions, let embedded, embedded.isRelative {
                    track = embedded.anchored(at: clock.start)
                }
                if job.timing.findsOffset {
                    let estimate = try job.timing.matchedOffset(
                        footage: embedded, path: input, clock: clock, track: track, maximumGap: plan.limits.maximumGap)
                    guard estimate.isReliable else {
                        throw FootageTimingError.offsetUncertain(footage: input, estimate)
                    }
                    clock.offset = estimate.offset
                    offsetEstimate = estimate
                }
            } catch {
                throw .timing(error)
            }
            let timeline: PoseTimeline
            do {
                let found = try plan.timeline(for: track)
                for warning in found.warnings { messages.warning(warning) }
                timeline = found.timeline
            } catch {
                throw .input(error)
            }
            if let heights = HeightNote.track(track, assumedGeoidSeparation: plan.geoidSeparation) {
                if heights.isWarning { messages.warning(heights.text) } else { messages.note("note: \(heights.text)") }
            }
            poses = .track(timeline, clock)
            if !job.passesThroughUnposed,
                let miss = TrackMiss(
                    clock: clock, frames: info.frameCount, exact: reader.kind != .mjpeg, track: track,
                    limits: plan.limits)
            {
                // Refused before any work: written, it would be the footage as it came.
                throw .trackMissed(miss)
            }
        }
        self.clock = {
            switch poses {
            case .track(_, let clock): clock
            case .fixed(_, let clock): clock
            case .geotags: nil
            }
        }()
        self.clockOrigin = clockOrigin
        self.offsetEstimate = offsetEstimate
        if case .track = poses { posesFromTrack = true } else { posesFromTrack = false }
        do {
            // One photo's name is the one given, whatever its conversions.
            if !job.isSinglePhoto { try job.output.checkNames(framesEvery: poses.frameInterval) }
        } catch {
            throw .destination(error)
        }
        // A calibration that does not fit the footage's frames is refused now, not found out frame
        // by frame (frames it cannot describe would pass through unannotated).
        if let calibration = job.camera.calibrationFile, let size = Self.firstFrameSize(reader: reader, first: first) {
            do {
                _ = try CameraModel(cameraInfoFile: calibration, frameSize: size)
            } catch {
                throw .input(error)
            }
        }
        // The font is opened now, so one that is missing is said at once rather than frame by frame,
        // as are the labels' scripts no font draws.
        do {
            for warning in try job.map.fontWarnings() { messages.warning(warning) }
        } catch {
            throw .font(error)
        }
        let fullRange = reader.y4mHeader?.isFullRange ?? reader.video?.isFullRange ?? true
        var settings = AnnotationSettings(
            pointsOfInterest: job.map.pointsOfInterest, route: job.map.route, style: job.map.style,
            banner: job.map.banner, cameraFile: job.camera.calibrationFile,
            horizontalFieldOfView: job.camera.horizontalFieldOfView, heightAboveGround: job.camera.heightAboveGround,
            quality: job.quality, destination: job.output, keepsRecords: job.sidecar != nil,
            inputRange: fullRange ? .full : .limited, minimap: job.minimap)
        settings.fieldOfViewFromPhotos = job.camera.fieldOfViewFromPhotos && job.camera.calibrationFile == nil
        settings.restartRows = job.restartRows
        settings.splices = job.splices
        settings.mapOnly = job.mapOnly
        settings.mapFrame = job.mapFrame
        settings.followsRoute = job.followsRoute && !job.mapOnly
        settings.selectsCenter = job.selectsCenter && !job.mapOnly
        settings.subsampling = job.subsampling
        settings.groundSpeed = job.groundSpeed
        let rate =
            reader.y4mHeader.map { $0.frameRate }
            ?? (job.timing.framesPerSecond == nil ? reader.video?.frameRate : nil)
            ?? Self.rate(job.timing.framesPerSecond ?? info.framesPerSecond ?? 30)
        do {
            sink = try FootageSink(
                destination: job.output, frameRate: rate, fullRange: fullRange, sidecar: job.sidecar,
                // Only Y4M and video frames are read into again.
                pool: reader.kind == .y4m || reader.kind == .video ? reader.pool : nil,
                replacing: job.replacing, videoSource: videoSource)
        } catch {
            throw .output(error)
        }
        pipeline = FootagePipeline(
            reader: reader, first: first, settings: settings, poses: poses,
            route: settings.followsRoute ? job.map.route : nil, sink: sink, workers: job.workers,
            clockUTCOffset: {
                if case .metadata(let source) = clockOrigin { return source.utcOffset }
                return nil
            }())
    }

    /// The counts so far. This property is thread-safe.
    public var progress: FootagePipeline.Progress { pipeline.progress }

    /// What the video output could not keep (a stream's metadata, a rate), after ``run(isInterrupted:onWarning:frameObserver:mapData:centreObserver:drawnObserver:)``.
    public var videoNotes: [String] { sink.videoNotes }

    /// The files a stopped run wrote under their partial names (`ride.partial.mp4`) instead of
    /// the names a finished run's have: each output's name and the one it has.
    public var partialOutputs: [(output: String, partial: String)] { sink.partialOutputs }

    /// Reads, annotates and writes every frame, then commits the output.
    ///
    /// - Parameters:
    ///   - isInterrupted: asked before each frame is read; true stops reading (Ctrl-C). The frames
    ///     in flight are finished and the output, whole, holds every frame up to there.
    ///   - onWarning: damaged frames, one call each.
    ///   - frameObserver: told of each frame before it is drawn, in frame order; what it returns
    ///     is selected in that frame (a view's selection).
    ///   - mapData: asked before each frame: map data to draw from that frame on (a session's,
    ///     which can change while footage runs); nil keeps the job's.
    ///   - centreObserver: with ``FootageJob/selectsCenter``, told of the marker drawn nearest each
    ///     frame's centre, in frame order.
    ///   - drawnObserver: told of what was drawn on each annotated frame, in frame order.
    /// - Returns: how it ended and what was done.
    public func run(
        isInterrupted: @escaping @Sendable () -> Bool = { false },
        onWarning: @escaping @Sendable (String) -> Void = { _ in },
        frameObserver: (@Sendable (FootagePipeline.FrameInfo) -> Set<String>?)? = nil,
        mapData: (@Sendable () -> MapDataSnapshot?)? = nil,
        centreObserver: (@Sendable (_ frame: Int, _ id: String) -> Void)? = nil,
        drawnObserver: (@Sendable (_ frame: Int, _ drawn: FrameAnnotation) -> Void)? = nil
    ) -> FootagePipeline.Summary {
        pipeline.run(
            isInterrupted: isInterrupted, onWarning: onWarning, frameObserver: frameObserver, mapData: mapData,
            centreObserver: centreObserver, drawnObserver: drawnObserver)
    }

    /// The first frame's size: the Y4M header's, or the first JPEG's.
    private static func firstFrameSize(reader: FootageReader, first: FootageFrame?) -> (width: Int, height: Int)? {
        if let header = reader.y4mHeader { return (header.width, header.height) }
        guard case .jpeg(let bytes) = first?.content, let decoder = try? JPEGDecoder() else { return nil }
        let header = bytes.withUnsafeBytes { raw in try? decoder.readHeader(raw) }
        return header.map { ($0.width, $0.height) }
    }

    /// A frame rate as a fraction (29.97 → 30000:1001).
    static func rate(_ fps: Double) -> (numerator: Int, denominator: Int) {
        let thousandths = Int((fps * 1000).rounded())
        return thousandths % 1000 == 0 ? (thousandths / 1000, 1) : (thousandths, 1000)
    }
}
